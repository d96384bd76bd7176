//go:build unix

package ingress

import (
	"os"
	"path/filepath"
	"testing"
)

func TestInodeChangesWhenAFileIsReplaced(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	stat := func() os.FileInfo {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return info
	}
	replaceFile(t, path, "a")
	first := inodeOf(stat())
	replaceFile(t, path, "a")
	second := inodeOf(stat())
	if first == 0 || first == second {
		t.Fatalf("inodes %d and %d: a replaced file must get a new, non-zero inode", first, second)
	}
}
