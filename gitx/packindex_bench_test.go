package gitx

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// benchURL is the repository the corpus benchmarks acquire:
// DOCWEAVE_BENCH_URL (e.g. file:///work/corpus/hugo-docs.git), with the
// documentation roots in DOCWEAVE_BENCH_PATHS (comma-separated; empty: the
// whole repository) and the depth in DOCWEAVE_BENCH_DEPTH (default 1; 0:
// the whole history, which packs many deltas).
func benchURL(b *testing.B) (string, *Sparse, int) {
	url := os.Getenv("DOCWEAVE_BENCH_URL")
	if url == "" {
		b.Skip("set DOCWEAVE_BENCH_URL to a repository to acquire")
	}
	var sp *Sparse
	if paths := os.Getenv("DOCWEAVE_BENCH_PATHS"); paths != "" {
		sp = &Sparse{Paths: strings.Split(paths, ",")}
	}
	depth := 1
	if d := os.Getenv("DOCWEAVE_BENCH_DEPTH"); d != "" {
		var err error
		if depth, err = strconv.Atoi(d); err != nil {
			b.Fatalf("DOCWEAVE_BENCH_DEPTH: %v", err)
		}
	}
	return url, sp, depth
}

// BenchmarkAcquireCorpus times a fresh depth-1 acquisition of a real
// repository, CPU of this process and its children included.
func BenchmarkAcquireCorpus(b *testing.B) {
	url, sp, depth := benchURL(b)
	parent := b.TempDir()
	var user, sys int64
	for i := 0; i < b.N; i++ {
		dir := filepath.Join(parent, fmt.Sprintf("acquire-%d", i))
		startUser, startSys := cpuTime()
		if _, err := Acquire(context.Background(), Request{URL: url, Dir: dir, Depth: depth, Sparse: sp, MaxFileBytes: 25 << 20}, RetryPolicy{}); err != nil {
			b.Fatal(err)
		}
		endUser, endSys := cpuTime()
		user += (endUser - startUser).Milliseconds()
		sys += (endSys - startSys).Milliseconds()
		b.StopTimer()
		if err := os.RemoveAll(dir); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(user)/float64(b.N), "user-ms/op")
	b.ReportMetric(float64(sys)/float64(b.N), "sys-ms/op")
}

// BenchmarkStorePackCorpus stores the pack of a real repository's
// acquisition by our indexer and by go-git's own path, in the same run,
// after checking that both write the same index for it.
func BenchmarkStorePackCorpus(b *testing.B) {
	url, sp, depth := benchURL(b)
	dir := filepath.Join(b.TempDir(), "src")
	if _, err := Acquire(context.Background(), Request{URL: url, Dir: dir, Depth: depth, Sparse: sp}, RetryPolicy{}); err != nil {
		b.Fatal(err)
	}
	packs, err := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "pack-*.pack"))
	if err != nil || len(packs) == 0 {
		b.Fatalf("no pack: %v", err)
	}
	for _, pack := range packs {
		ours, err := os.ReadFile(strings.TrimSuffix(pack, ".pack") + ".idx")
		if err != nil {
			b.Fatal(err)
		}
		if !bytes.Equal(ours, goGitIndex(b, pack)) {
			b.Fatalf("index of %s differs from go-git's", filepath.Base(pack))
		}
	}
	for name, store := range map[string]func(*filesystem.Storage, *os.File) error{
		"ours":   func(st *filesystem.Storage, f *os.File) error { _, err := storePack(st, f); return err },
		"go-git": func(st *filesystem.Storage, f *os.File) error { return packfile.UpdateObjectStorage(st, f) },
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				st := filesystem.NewStorage(osfs.New(b.TempDir()), cache.NewObjectLRUDefault())
				b.StartTimer()
				for _, pack := range packs {
					f, err := os.Open(pack)
					if err != nil {
						b.Fatal(err)
					}
					if err := store(st, f); err != nil {
						b.Fatal(err)
					}
					f.Close()
				}
			}
		})
	}
}
