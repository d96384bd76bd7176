package gitx

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/docweave/docweave/internal/gittest"
)

// largeFolderFiles is the repository of issue 20: one folder of n small
// generated files and a docs/ folder of 20 pages (or, with bigDocs, n
// Markdown files in docs/ itself).
func largeFolderFiles(n int, bigDocs bool) map[string]string {
	files := make(map[string]string, n+20)
	for i := range 20 {
		files[fmt.Sprintf("docs/page-%02d.md", i)] = fmt.Sprintf("# Page %d\n\nDocumentation text.\n", i)
	}
	for i := range n {
		if bigDocs {
			files[fmt.Sprintf("docs/ref/item-%05d.md", i)] = fmt.Sprintf("# Item %d\n", i)
		} else {
			files[fmt.Sprintf("generated/file-%05d.txt", i)] = fmt.Sprintf("generated %d\n", i)
		}
	}
	return files
}

// timings collects one measure's samples and reports its median.
type timings map[string][]time.Duration

func (t timings) add(name string, start time.Time) { t[name] = append(t[name], time.Since(start)) }

func (t timings) median(name string) time.Duration {
	s := append([]time.Duration(nil), t[name]...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// BenchmarkLargeFolder measures acquisition of a repository with one
// folder of 20,000 small files (issue 20: 206 s with go-git's checkout),
// and of one whose docs/ holds 20,000 Markdown files, over Git smart HTTP
// with partial clones allowed (as GitHub, GitLab and Forgejo do). Each
// iteration runs, one after the other so the machine's load touches all
// alike: git clone --depth 1; git clone --depth 1 --filter=blob:none
// --sparse plus sparse-checkout set docs; docweave's Acquire of docs only
// (Request.Sparse, the default of build.sparse_checkout); and Acquire of the
// whole tree. Medians are reported in seconds, with the ratios.
func BenchmarkLargeFolder(b *testing.B) {
	for _, c := range []struct {
		name    string
		bigDocs bool
	}{{"generated-folder", false}, {"docs-folder", true}} {
		b.Run(c.name, func(b *testing.B) {
			r := gittest.NewBulkRepo(b, largeFolderFiles(20000, c.bigDocs))
			r.Git(b, "config", "uploadpack.allowFilter", "true")
			url := gittest.NewHTTPServer(b, gittest.HTTPOptions{}).Add(b, "large", r)
			ctx := context.Background()
			t := timings{}
			for i := 0; b.Loop(); i++ {
				root := b.TempDir()
				start := time.Now()
				if err := gitCLI(root, "clone", "-q", "--depth", "1", url, "full"); err != nil {
					b.Fatal(err)
				}
				t.add("git-clone", start)

				start = time.Now()
				if err := gitCLI(root, "clone", "-q", "--depth", "1", "--filter=blob:none", "--sparse", url, "sparse"); err != nil {
					b.Fatal(err)
				}
				if err := gitCLI(filepath.Join(root, "sparse"), "sparse-checkout", "set", "docs"); err != nil {
					b.Fatal(err)
				}
				t.add("git-sparse", start)

				start = time.Now()
				res, err := Acquire(ctx, Request{URL: url, Depth: 1, Dir: filepath.Join(root, "docweave"), Sparse: &Sparse{Paths: []string{"docs"}}}, RetryPolicy{})
				if err != nil || !res.Partial {
					b.Fatalf("sparse acquire: %+v %v", res, err)
				}
				t.add("docweave-sparse", start)

				start = time.Now()
				if _, err := Acquire(ctx, Request{URL: url, Depth: 1, Dir: filepath.Join(root, "whole")}, RetryPolicy{}); err != nil {
					b.Fatal(err)
				}
				t.add("docweave-whole", start)
			}
			for _, name := range []string{"git-clone", "git-sparse", "docweave-sparse", "docweave-whole"} {
				b.ReportMetric(t.median(name).Seconds(), name+"-s")
			}
			b.ReportMetric(t.median("docweave-sparse").Seconds()/t.median("git-clone").Seconds(), "sparse/clone")
			b.ReportMetric(t.median("docweave-sparse").Seconds()/t.median("git-sparse").Seconds(), "sparse/git-sparse")
			b.ReportMetric(t.median("docweave-whole").Seconds()/t.median("git-clone").Seconds(), "whole/clone")
		})
	}
}
