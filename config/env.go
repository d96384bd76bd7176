package config

import (
	"fmt"
	"slices"
	"strings"
)

// envLookup answers whether a variable is set and its value; the loader
// builds one from .env files and the process environment so that nothing
// is written into the process environment itself.
type envLookup func(name string) (string, bool)

// mapLookup turns a map into an envLookup.
func mapLookup(env map[string]string) envLookup {
	return func(name string) (string, bool) {
		v, ok := env[name]
		return v, ok
	}
}

// unsetVariablesError reports ${NAME} references whose variable is unset
// and that carry no :- default.
type unsetVariablesError struct {
	Names []string
}

func (e *unsetVariablesError) Error() string {
	refs := make([]string, len(e.Names))
	for i, n := range e.Names {
		refs[i] = "${" + n + "}"
	}
	verb := "is"
	if len(e.Names) > 1 {
		verb = "are"
	}
	return fmt.Sprintf("environment variable %s %s unset; set it in the environment or a .env file, or give a default with ${%s:-value}",
		strings.Join(refs, ", "), verb, e.Names[0])
}

// expandEnv replaces ${NAME} and ${NAME:-default} references in s and turns
// $$ into a literal $. A $ followed by anything else is kept as it is. The
// default text is used literally (no nested references) when NAME is unset
// or empty. Errors describe positions, never the surrounding text, because
// the string may be a secret.
func expandEnv(s string, lookup envLookup) (string, error) {
	if !strings.Contains(s, "$") {
		return s, nil
	}
	var out strings.Builder
	var unset []string
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '$' || i+1 >= len(s) {
			out.WriteByte(c)
			continue
		}
		switch s[i+1] {
		case '$':
			out.WriteByte('$')
			i++
			continue
		case '{':
		default:
			out.WriteByte(c)
			continue
		}
		end := strings.IndexByte(s[i+2:], '}')
		if end < 0 {
			return "", fmt.Errorf("unterminated ${ at character %d; expected ${NAME} or ${NAME:-default}, or $$ for a literal $", i+1)
		}
		body := s[i+2 : i+2+end]
		name, def, hasDefault := strings.Cut(body, ":-")
		if !validEnvName(name) {
			return "", fmt.Errorf("invalid ${...} reference at character %d; expected ${NAME} or ${NAME:-default} where NAME is letters, digits and _ not starting with a digit, or $$ for a literal $", i+1)
		}
		value, ok := lookup(name)
		switch {
		case hasDefault && value == "":
			out.WriteString(def)
		case ok:
			out.WriteString(value)
		default:
			if !slices.Contains(unset, name) {
				unset = append(unset, name)
			}
		}
		i += 2 + end
	}
	if len(unset) > 0 {
		return "", &unsetVariablesError{Names: unset}
	}
	return out.String(), nil
}

// validEnvName reports whether name is a portable environment variable name.
func validEnvName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
