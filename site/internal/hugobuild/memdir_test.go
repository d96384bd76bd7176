package hugobuild

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gohugoio/hugo/hugofs"
	"github.com/spf13/afero"
)

func TestMemDirFsServesTheDirectoryFromMemoryAndTheRestFromDisk(t *testing.T) {
	root := t.TempDir()
	onDisk := filepath.Join(root, "disk.txt")
	if err := os.WriteFile(onDisk, []byte("disk"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "mem")
	fsys, err := NewMemDirFs(dir, map[string][]byte{"a/b.md": []byte("in memory")})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := afero.ReadFile(fsys, filepath.Join(dir, "a", "b.md")); err != nil || string(got) != "in memory" {
		t.Errorf("file below the directory: %q, %v; want it from memory", got, err)
	}
	if got, err := afero.ReadFile(fsys, onDisk); err != nil || string(got) != "disk" {
		t.Errorf("file outside the directory: %q, %v; want it from disk", got, err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the directory was created on disk (%v); want it in memory only", err)
	}
	entries, err := afero.ReadDir(fsys, filepath.Join(dir, "a"))
	if err != nil || len(entries) != 1 || entries[0].Name() != "b.md" {
		t.Errorf("listing a directory in memory: %v, %v", entries, err)
	}
	if err := fsys.Rename(filepath.Join(dir, "a", "b.md"), filepath.Join(root, "b.md")); err == nil {
		t.Error("a rename from memory to disk succeeded; want an error")
	}
	if !hugofs.IsOsFs(fsys) {
		t.Error("hugofs.IsOsFs is false; Hugo must treat the project as on disk")
	}
}
