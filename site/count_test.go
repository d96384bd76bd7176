package site

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestCountFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.html": "", "x/b.html": "", "x/y/c.png": ""})
	n, err := countFiles(dir)
	if err != nil || n != 3 {
		t.Errorf("countFiles = %d, %v; want 3", n, err)
	}
	if _, err := countFiles(filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "count published files") {
		t.Errorf("missing dir: err = %v", err)
	}
}
