package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// oneRepo is the smallest repositories section that validates.
const oneRepo = `repositories:
  - url: https://git.example.com/org/handbook.git
    name: handbook
`

// writeConfig writes text as docweave.yaml in a fresh directory, makes that
// directory the working directory (so no stray .env is picked up) and
// returns the file's path.
func writeConfig(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	path := filepath.Join(dir, "docweave.yaml")
	writeFile(t, path, text)
	return path
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// loadText loads text through Load from a temporary file.
func loadText(t *testing.T, text string, mode Mode) (*Config, error) {
	t.Helper()
	return Load(writeConfig(t, text), mode)
}

// mustLoad loads text and fails the test on any error.
func mustLoad(t *testing.T, text string, mode Mode) *Config {
	t.Helper()
	c, err := loadText(t, text, mode)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return c
}

// problemsOf returns the problems of a *ValidationError, failing the test
// for nil or any other error.
func problemsOf(t *testing.T, err error) []Problem {
	t.Helper()
	if err == nil {
		t.Fatal("expected a validation error, got none")
	}
	var verr *ValidationError
	if !errors.As(err, &verr) {
		t.Fatalf("expected *ValidationError, got %T: %v", err, err)
	}
	return verr.Problems
}

// requireProblem fails unless err reports a problem at key whose message
// contains every one of the fragments.
func requireProblem(t *testing.T, err error, key string, fragments ...string) Problem {
	t.Helper()
	problems := problemsOf(t, err)
	for _, p := range problems {
		if p.Key != key {
			continue
		}
		ok := true
		for _, f := range fragments {
			if !strings.Contains(p.Message, f) {
				ok = false
			}
		}
		if ok {
			return p
		}
	}
	t.Fatalf("no problem at %q containing %q; got:\n%v", key, fragments, err)
	return Problem{}
}

// requireNoProblemAt fails when err reports anything at key.
func requireNoProblemAt(t *testing.T, err error, key string) {
	t.Helper()
	if err == nil {
		return
	}
	var verr *ValidationError
	if !errors.As(err, &verr) {
		t.Fatalf("unexpected error %T: %v", err, err)
	}
	for _, p := range verr.Problems {
		if p.Key == key {
			t.Fatalf("unexpected problem %v", p)
		}
	}
}

// validConfig is a configuration that passes Validate in every mode, for
// rule tests that change one field.
func validConfig(t *testing.T, mode Mode) *Config {
	t.Helper()
	c := Default()
	c.Mode = mode
	c.Repositories = []Repository{{URL: "https://git.example.com/org/handbook.git", Name: "handbook", Paths: []string{"docs"}}}
	dir := t.TempDir()
	c.loadState.baseDir = filepath.Join(dir, "config")
	c.Output.Directory = filepath.Join(dir, "site")
	c.Daemon.Storage.OutputDir = c.Output.Directory
	c.Ingress.APIKeys = []string{"k-0123456789abcdef"}
	c.Ingress.Source.Path = filepath.Join(dir, "ingresses.yaml")
	if err := c.Validate(); err != nil {
		t.Fatalf("baseline configuration does not validate in %s mode:\n%v", mode, err)
	}
	return &c
}
