package config

import (
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"
)

// freeTextKeys may hold tabs and line breaks (a multi-line YAML string);
// every other string key is a name, path, URL, pattern or secret, where a
// control character is always a mistake (or an attack: a NUL byte in a
// URL, a CR/LF in a header value) and makes the value fail later, far
// from the file.
var freeTextKeys = map[string]bool{
	"generator.title":       true,
	"generator.description": true,
}

// validateStrings walks every string of the configuration (list items,
// map values and free-form theme parameters included) and reports control
// characters and invalid UTF-8, naming the key and the byte offset but
// never the value, which may be a secret.
func (c *Config) validateStrings(l *problemList) {
	walkStrings(reflect.ValueOf(*c), "", func(key, s string) {
		free := freeTextKeys[key] || strings.HasPrefix(key, "generator.params.")
		if msg := controlProblem(s, free); msg != "" {
			l.add(key, "%s", msg)
		}
	})
}

// controlProblem describes the first character of s a configuration value
// may not contain, or returns "". Free text may contain tab, LF and CR.
func controlProblem(s string, freeText bool) string {
	if !utf8.ValidString(s) {
		return "is not valid UTF-8; expected text"
	}
	for i, r := range s {
		if freeText && (r == '\t' || r == '\n' || r == '\r') {
			continue
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return fmt.Sprintf("contains the control character U+%04X at byte %d; expected printable characters only (check for a stray newline or NUL from a variable or file)", r, i)
		}
	}
	return ""
}

// walkStrings calls visit with the key path of every string reachable from
// v: struct fields by their configuration key, list items as key[i], map
// values as key.name. A map key that is not printable is visited at the
// map's own key path, so its problem names the mapping.
func walkStrings(v reflect.Value, key string, visit func(key, s string)) {
	switch v.Kind() {
	case reflect.String:
		visit(key, v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkStrings(v.Elem(), key, visit)
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			name := keyName(t.Field(i))
			if name == "" {
				continue
			}
			walkStrings(v.Field(i), joinKey(key, name), visit)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			walkStrings(v.Index(i), fmt.Sprintf("%s[%d]", key, i), visit)
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			name := fmt.Sprint(iter.Key().Interface())
			if controlProblem(name, false) != "" {
				visit(key, name) // a key of the mapping: reported at the mapping
				continue
			}
			walkStrings(iter.Value(), joinKey(key, name), visit)
		}
	}
}

// token68Expected describes a valid bearer token in problems.
const token68Expected = "contains characters a bearer token cannot carry; expected letters, digits and - . _ ~ + / (optionally ending in =), without spaces"

// IsToken68 reports whether s is an RFC 7235 token68, the only thing a
// client can send after "Bearer ": letters, digits, - . _ ~ + /, then
// optional trailing '='. The admin and ingress servers accept exactly the
// tokens validation lets through.
func IsToken68(s string) bool {
	i := 0
	for i < len(s) && isToken68Char(s[i]) {
		i++
	}
	if i == 0 {
		return false
	}
	for i < len(s) && s[i] == '=' {
		i++
	}
	return i == len(s)
}

func isToken68Char(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/'
}
