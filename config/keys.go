package config

import "reflect"

// keyPaths lists every configuration key path, sections included, spelled
// the way the reference documentation spells them: list elements as "[]"
// (repositories[].auth.token). It is derived from the struct tags, so the
// documentation test notices a key the reference does not describe.
func keyPaths() []string {
	return appendKeyPaths(nil, reflect.TypeOf(Config{}), "")
}

func appendKeyPaths(out []string, t reflect.Type, prefix string) []string {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := keyName(f)
		if name == "" {
			continue
		}
		path := joinKey(prefix, name)
		out = append(out, path)
		ft := f.Type
		switch {
		case ft.Kind() == reflect.Struct && ft != durationType:
			out = appendKeyPaths(out, ft, path)
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct:
			out = appendKeyPaths(out, ft.Elem(), path+"[]")
		}
	}
	return out
}
