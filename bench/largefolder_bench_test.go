package bench

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/direct"
	"github.com/docweave/docweave/internal/gittest"
)

// BenchmarkLargeFolderBuild takes issue 20's figure in one run: a
// repository with one folder of 20,000 small generated files and a docs/
// folder of 20 pages, served over Git smart HTTP with partial clones
// allowed (as GitHub, GitLab and Forgejo serve them), and — the same
// content — from a server that does not allow them. Each iteration runs,
// one after the other: git clone --depth 1; git clone --depth 1
// --filter=blob:none --sparse plus git sparse-checkout set docs; a cold
// `docweave build` (direct.Build, the command's own code: embedded broker,
// every stage, Hugo render of the 20 pages) from the first server; and one
// from the server without partial clones. Medians in seconds, and the
// ratios of docweave's build to both git clones.
func BenchmarkLargeFolderBuild(b *testing.B) {
	files := map[string]string{}
	for i := range 20 {
		files[fmt.Sprintf("docs/page-%02d.md", i)] = fmt.Sprintf("---\ntitle: Page %d\n---\nDocumentation text %d.\n", i, i)
	}
	for i := range 20000 {
		files[fmt.Sprintf("generated/file-%05d.txt", i)] = fmt.Sprintf("generated %d\n", i)
	}
	partial := gittest.NewBulkRepo(b, files)
	partial.Git(b, "config", "uploadpack.allowFilter", "true")
	whole := gittest.NewBulkRepo(b, files)
	srv := gittest.NewHTTPServer(b, gittest.HTTPOptions{})
	partialURL, wholeURL := srv.Add(b, "partial", partial), srv.Add(b, "whole", whole)
	git := gittest.RequireGit(b)
	run := func(dir string, args ...string) {
		b.Helper()
		cmd := exec.Command(git, args...)
		cmd.Dir, cmd.Env = dir, gittest.GitEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	build := func(root, url string) {
		b.Helper()
		cfg := config.Default()
		cfg.Repositories = []config.Repository{{Name: "large", URL: url, Paths: []string{"docs"}}}
		cfg.Build.WorkspaceDir = filepath.Join(root, "workspace")
		cfg.Output.Directory = filepath.Join(root, "site")
		rep, err := direct.Build(context.Background(), &cfg, direct.Options{Log: zerolog.Nop()})
		if err != nil || rep.ExitCode() != 0 || rep.RenderedPages < 20 {
			b.Fatalf("docweave build: %v, %+v", err, rep)
		}
	}
	samples := map[string][]float64{}
	measure := func(name string, f func()) {
		start := time.Now()
		f()
		samples[name] = append(samples[name], time.Since(start).Seconds())
	}
	for b.Loop() {
		root := b.TempDir()
		measure("git-clone", func() { run(root, "clone", "-q", "--depth", "1", partialURL, "clone") })
		measure("git-sparse", func() {
			run(root, "clone", "-q", "--depth", "1", "--filter=blob:none", "--sparse", partialURL, "sparse")
			run(filepath.Join(root, "sparse"), "sparse-checkout", "set", "docs")
		})
		measure("docweave", func() { build(filepath.Join(root, "dw"), partialURL) })
		measure("docweave-no-filter", func() { build(filepath.Join(root, "dw-whole"), wholeURL) })
	}
	median := func(name string) float64 {
		s := append([]float64(nil), samples[name]...)
		sort.Float64s(s)
		return s[len(s)/2]
	}
	for _, name := range []string{"git-clone", "git-sparse", "docweave", "docweave-no-filter"} {
		b.ReportMetric(median(name), name+"-s")
	}
	b.ReportMetric(median("docweave")/median("git-clone"), "build/clone")
	b.ReportMetric(median("docweave")/median("git-sparse"), "build/sparse")
	b.ReportMetric(median("docweave-no-filter")/median("git-clone"), "no-filter/clone")
}
