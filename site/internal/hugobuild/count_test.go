package hugobuild

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

func TestCountFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, fstest.MapFS{"a.html": {}, "x/b.html": {}, "x/y/c.png": {}}); err != nil {
		t.Fatal(err)
	}
	n, err := CountFiles(dir)
	if err != nil || n != 3 {
		t.Errorf("CountFiles = %d, %v; want 3", n, err)
	}
	if _, err := CountFiles(filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "count published files") {
		t.Errorf("missing dir: err = %v", err)
	}
}
