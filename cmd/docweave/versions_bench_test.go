package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docweave/docweave/bench"
	"github.com/docweave/docweave/bench/farm"
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/report"
)

// BenchmarkVersionsAgainstRepositories is issue #8's measurement: one
// repository with 20 versions (main and 19 tags, each 50 pages, each a
// little different) against 20 repositories of 50 pages, both over Git
// smart HTTP, built cold by `docweave build` in the same run, alternating.
// It reports the median wall time of each, their ratio, and the median
// busy time of discover, clone and render in each.
func BenchmarkVersionsAgainstRepositories(b *testing.B) {
	const versions, pages = 20, 50
	srv := gittest.NewHTTPServer(b, gittest.HTTPOptions{})
	repos, err := farm.Generate(farm.Spec{Dir: b.TempDir(), Repos: versions, Pages: pages})
	if err != nil {
		b.Fatal(err)
	}
	var manyURLs []string
	for _, r := range repos {
		manyURLs = append(manyURLs, srv.Add(b, r.Name, gittest.Open(r.Path)))
	}
	one, err := farm.Generate(farm.Spec{Dir: b.TempDir(), Repos: 1, Pages: pages})
	if err != nil {
		b.Fatal(err)
	}
	for i := 1; i < versions; i++ {
		if err := farm.Change(one[0], i); err != nil {
			b.Fatal(err)
		}
		tag := exec.Command("git", "tag", fmt.Sprintf("v1.%d.0", i))
		tag.Dir, tag.Env = one[0].Path, gittest.GitEnv()
		if out, err := tag.CombinedOutput(); err != nil {
			b.Fatalf("tag: %v %s", err, out)
		}
	}
	if err := farm.Change(one[0], versions); err != nil { // main moves past the last tag
		b.Fatal(err)
	}
	oneURL := srv.Add(b, "versioned", gittest.Open(one[0].Path))

	stages := map[string][]float64{}
	build := func(name, yaml string, wantUnits int) time.Duration {
		dir := b.TempDir()
		cfg := filepath.Join(dir, name+".yaml")
		writeFile(b, cfg, yaml+fmt.Sprintf("output: {directory: %s}\nbuild: {workspace_dir: %s}\n", filepath.Join(dir, "site"), filepath.Join(dir, "ws")))
		start := time.Now()
		if res := run(b, dir, nil, "build", "-c", cfg, "--log-format", "json", "--log-level", "warn"); res.code != 0 {
			b.Fatalf("%s build: exit %d\n%s", name, res.code, res.stderr)
		}
		took := time.Since(start)
		rep := readReport(b, filepath.Join(dir, "site"))
		if rep.ClonedRepositories != wantUnits || rep.Outcome != report.OutcomeSuccess {
			b.Fatalf("%s build: %d units cloned, outcome %s; want %d", name, rep.ClonedRepositories, rep.Outcome, wantUnits)
		}
		for _, st := range []string{"discover", "clone", "render"} {
			stages[name+"-"+st] = append(stages[name+"-"+st], float64(rep.StageDurationsMS[st]))
		}
		return took
	}
	var manyYAML strings.Builder
	manyYAML.WriteString("repositories:\n")
	for i, u := range manyURLs {
		fmt.Fprintf(&manyYAML, "  - {name: %s, url: %q}\n", repos[i].Name, u)
	}
	versionedYAML := fmt.Sprintf("repositories:\n  - {name: versioned, url: %q}\nversioning: {enabled: true, max_versions_per_repo: %d}\n", oneURL, versions)

	var vTimes, rTimes []float64
	for b.Loop() {
		vTimes = append(vTimes, build("versions", versionedYAML, versions).Seconds())
		rTimes = append(rTimes, build("repositories", manyYAML.String(), versions).Seconds())
	}
	v, r := bench.Summarize(vTimes).Median, bench.Summarize(rTimes).Median
	b.ReportMetric(v*1000, "versions-ms")
	b.ReportMetric(r*1000, "repos-ms")
	b.ReportMetric(v/r, "versions/repos")
	// Busy time per stage (clone summed over its jobs), to see where a
	// difference comes from.
	for key, xs := range stages {
		b.ReportMetric(bench.Summarize(xs).Median, key+"-ms")
	}
}
