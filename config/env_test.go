package config

import (
	"errors"
	"strings"
	"testing"
)

func TestExpandEnv(t *testing.T) {
	env := mapLookup(map[string]string{"HOST": "git.example.com", "EMPTY": "", "TOKEN": "t0k"})
	cases := []struct {
		name, in, want string
	}{
		{"no references", "plain text", "plain text"},
		{"one reference", "https://${HOST}/org", "https://git.example.com/org"},
		{"two references", "${HOST}:${TOKEN}", "git.example.com:t0k"},
		{"default unused when set", "${HOST:-other}", "git.example.com"},
		{"default when unset", "${MISSING:-fallback}", "fallback"},
		{"default when empty", "${EMPTY:-fallback}", "fallback"},
		{"empty default", "x${MISSING:-}y", "xy"},
		{"default with punctuation", "${MISSING:-http://localhost:8080/}", "http://localhost:8080/"},
		{"set but empty without default", "a${EMPTY}b", "ab"},
		{"dollar dollar is a literal dollar", "price $$5", "price $5"},
		{"escaped reference stays literal", "$${HOST}", "${HOST}"},
		{"escape then reference", "$$${HOST}", "$git.example.com"},
		{"lone dollar kept", "a $ b", "a $ b"},
		{"trailing dollar kept", "cost$", "cost$"},
		{"shell form without braces is not expanded", "$HOST", "$HOST"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := expandEnv(tc.in, env)
			if err != nil {
				t.Fatalf("expandEnv(%q): %v", tc.in, err)
			}
			if got != tc.want {
				t.Fatalf("expandEnv(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestExpandEnvErrors(t *testing.T) {
	env := mapLookup(map[string]string{"SET": "v"})
	cases := []struct {
		name, in string
		want     []string
		unset    []string
	}{
		{"unset variable", "x-${GIT_TOKEN}", []string{"${GIT_TOKEN}", "is unset", "${GIT_TOKEN:-value}"}, []string{"GIT_TOKEN"}},
		{"several unset, each once", "${A}${B}${A}", []string{"${A}, ${B}", "are unset"}, []string{"A", "B"}},
		{"unterminated", "secret${OOPS", []string{"unterminated ${ at character 7", "$$"}, nil},
		{"empty name", "${}", []string{"invalid ${...} reference at character 1"}, nil},
		{"name starting with digit", "${1X}", []string{"invalid ${...} reference"}, nil},
		{"unsupported operator", "${SET:?boom}", []string{"invalid ${...} reference"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := expandEnv(tc.in, env)
			if err == nil {
				t.Fatalf("expandEnv(%q) succeeded, want error", tc.in)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			var unset *unsetVariablesError
			if tc.unset != nil {
				if !errors.As(err, &unset) || strings.Join(unset.Names, ",") != strings.Join(tc.unset, ",") {
					t.Errorf("unset names = %v, want %v", unset, tc.unset)
				}
			}
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("error echoes the value: %q", err)
			}
		})
	}
}

func TestValidEnvName(t *testing.T) {
	for name, want := range map[string]bool{"A": true, "_x1": true, "GIT_TOKEN": true, "": false, "1A": false, "A-B": false, "A B": false} {
		if got := validEnvName(name); got != want {
			t.Errorf("validEnvName(%q) = %v, want %v", name, got, want)
		}
	}
}
