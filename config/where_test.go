package config

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestWhereNamesTheLineOfAKey(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "site.yaml")
	text := "repositories:\n  - name: api\n    url: https://example.org/api.git\n  - name: guide\n    url: https://example.org/guide.git\n    paths:\n      - docs\n      - manual\noutput:\n  directory: out\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(path, ModeDirect)
	if err != nil {
		t.Fatal(err)
	}
	for key, line := range map[string]int{"repositories[0].url": 3, "repositories[1].paths[1]": 8, "repositories[0].paths": 2, "output.directory": 10} {
		if got, want := cfg.Where(key), path+":"+itoa(line); got != want {
			t.Errorf("Where(%s) = %q, want %q", key, got, want)
		}
	}
	if k := cfg.RepositoryKey("guide"); k != "repositories[1]" {
		t.Errorf("RepositoryKey(guide) = %q", k)
	}
	if k := cfg.RepositoryKey("found-on-a-forge"); k != "" {
		t.Errorf("a discovered repository has key %q", k)
	}
	inline, _ := LoadBytes([]byte(text), dir, ModeDirect)
	if w := inline.Where("repositories[0].url"); w != "" {
		t.Errorf("text from no file: %q", w)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
