package hotpaths

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/docweave/docweave/bench/farm"
	"github.com/docweave/docweave/pipeline/artifact"
)

// docsTree generates one farm repository of pages pages and returns its
// documentation folder: the tree the prune stage fingerprints.
func docsTree(tb testing.TB, pages int) string {
	tb.Helper()
	repos, err := farm.Generate(farm.Spec{Dir: tb.TempDir(), Repos: 1, Pages: pages})
	if err != nil {
		tb.Fatal(err)
	}
	return filepath.Join(repos[0].Path, "docs")
}

func TestFingerprintFixture(t *testing.T) {
	dir := docsTree(t, 100)
	ref, files, err := artifact.HashDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	// 100 pages, _index.md and two images
	if files != 103 || len(ref) != len("sha256:")+64 {
		t.Fatalf("HashDir: %d files, ref %q", files, ref)
	}
	again, _, _ := artifact.HashDir(dir)
	if again != ref {
		t.Fatal("the fingerprint of an unchanged tree changed")
	}
}

// BenchmarkHashDir100Pages fingerprints a 100-page documentation tree from
// disk (read and hash every file, then combine).
func BenchmarkHashDir100Pages(b *testing.B) {
	dir := docsTree(b, 100)
	b.ReportAllocs()
	for b.Loop() {
		if _, n, err := artifact.HashDir(dir); err != nil || n == 0 {
			b.Fatal(n, err)
		}
	}
}

// BenchmarkTreeRef5000Entries combines 5,000 already-hashed files — a
// whole 50×100 site's documentation — into one reference.
func BenchmarkTreeRef5000Entries(b *testing.B) {
	entries := make([]artifact.Entry, 5000)
	for i := range entries {
		entries[i] = artifact.Entry{Rel: fmt.Sprintf("repo%02d/guide/page%03d.md", i/100, i%100), Hash: fmt.Sprintf("%064x", i*7919)}
	}
	b.ReportAllocs()
	for b.Loop() {
		if artifact.TreeRef(entries) == "" {
			b.Fatal("empty reference")
		}
	}
}
