//go:build unix

package docs

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFileIDDistinguishesFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte("same"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fa, _ := os.Stat(a)
	fb, _ := os.Stat(b)
	_, inoA := fileID(fa)
	_, inoB := fileID(fb)
	if inoA == 0 || inoA == inoB {
		t.Fatalf("inodes %d and %d: want two distinct non-zero inodes", inoA, inoB)
	}
}
