package gitx

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/docweave/docweave/internal/gittest"
)

// A file over Request.MaxFileBytes is never read: the checkout writes a
// stand-in of its size (which the collector measures and refuses) and
// leaves it out of the index, and checking it out allocates far less than
// the file's size. Reading the blob, as the checkout did, allocated about
// five times its size (go-git inflates a packed object into a growing
// buffer).
func TestOversizedFileIsNeverRead(t *testing.T) {
	const size = 64 << 20
	huge := strings.Repeat("a large generated line of text that compresses well\n", size/52+1)[:size]
	r := gittest.NewBulkRepo(t, map[string]string{"docs/huge.bin": huge, "docs/index.md": "# Home\n"})
	hash := plumbing.ComputeHash(plumbing.BlobObject, []byte(huge))
	huge = ""
	dir := workdir(t)
	mustAcquire(t, Request{URL: r.FileURL(), Dir: dir, Depth: 1, MaxFileBytes: 1 << 20})
	if got := readFile(t, filepath.Join(dir, "docs", "index.md")); got != "# Home\n" {
		t.Fatalf("docs/index.md = %q", got)
	}
	fi, err := os.Stat(filepath.Join(dir, "docs", "huge.bin"))
	if err != nil || fi.Size() != size {
		t.Fatalf("stand-in of docs/huge.bin: %v, %v; want %d bytes", fi, err, size)
	}
	repo, closeRepo, err := openRepo(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer closeRepo()
	idx, err := repo.Storer.Index()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range idx.Entries {
		if e.Name == "docs/huge.bin" {
			t.Fatal("the stand-in is in the index, as if it were the file")
		}
	}

	// The checkout alone, from the same object store, into a new directory.
	files := []treeEntry{{path: "docs/huge.bin", mode: filemode.Regular, hash: hash}}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, _, err := materialize(t.TempDir(), repo.Storer, files, nil, true, 1<<20); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > size/8 {
		t.Fatalf("checking out a refused %d-byte file allocated %d bytes; it was read", size, grew)
	}
}
