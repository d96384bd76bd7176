package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/docweave/docweave/bench/farm"
	"github.com/docweave/docweave/report"
)

// coldSample is one cold direct build.
type coldSample struct {
	Seconds float64
	RSSMB   float64
	// UserCPUSeconds is the build process's user CPU, its git commands
	// included.
	UserCPUSeconds float64
	Report         report.Report
}

// coldBuild runs `docweave build` as a child process against the farm with
// a fresh workspace and output directory, so nothing is reused: the build
// an operator runs on a new machine.
func (f *sizeFarm) coldBuild(ctx context.Context, round int) (coldSample, error) {
	return f.coldBuildWith(ctx, f.opts.Binary, fmt.Sprintf("cold-%d", round), f.repos)
}

// coldBuildWith is a cold build of the given repositories of the farm by
// the given docweave executable, in a directory of its own named name.
func (f *sizeFarm) coldBuildWith(ctx context.Context, binary, name string, repos []farm.Repo) (coldSample, error) {
	dir := filepath.Join(f.work, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return coldSample{}, fmt.Errorf("cold build %s: %w", name, err)
	}
	defer os.RemoveAll(dir)
	cfgPath := filepath.Join(dir, "docweave.yaml")
	if err := os.WriteFile(cfgPath, []byte(f.directConfigYAML(dir, repos)), 0o644); err != nil {
		return coldSample{}, fmt.Errorf("cold build %s: write configuration: %w", name, err)
	}
	run, err := runChild(ctx, binary, nil, "build", "--config", cfgPath, "--log-format", "json", "--log-level", "warn")
	if err != nil {
		return coldSample{}, fmt.Errorf("cold build %s of %s: %w", name, f.size, err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "site", "build-report.json"))
	if err != nil {
		return coldSample{}, fmt.Errorf("cold build %s of %s: read its report: %w", name, f.size, err)
	}
	var rep report.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return coldSample{}, fmt.Errorf("cold build %s of %s: build-report.json: %w", name, f.size, err)
	}
	if rep.ClonedRepositories != len(repos) || rep.FailedRepositories != 0 || !rep.StaticRendered {
		return coldSample{}, fmt.Errorf("cold build %s of %s: cloned %d of %d repositories, %d failed, rendered=%v; the figure would not be of the same work",
			name, f.size, rep.ClonedRepositories, len(repos), rep.FailedRepositories, rep.StaticRendered)
	}
	return coldSample{Seconds: run.Wall.Seconds(), RSSMB: float64(run.MaxRSSB) / (1 << 20), UserCPUSeconds: run.UserCPU.Seconds(), Report: rep}, nil
}

// directConfigYAML is the configuration of a cold build: the farm's
// repositories over Git smart HTTP, defaults for everything else except
// the directories, which live under dir.
func (f *sizeFarm) directConfigYAML(dir string, repos []farm.Repo) string {
	var b strings.Builder
	b.WriteString("repositories:\n")
	for _, r := range repos {
		fmt.Fprintf(&b, "  - {name: %s, url: %q}\n", r.Name, f.git.URL(r.Name))
	}
	fmt.Fprintf(&b, "build:\n  clone_concurrency: %d\n  workspace_dir: %q\n", f.opts.CloneConcurrency, filepath.Join(dir, "workspace"))
	fmt.Fprintf(&b, "generator:\n  title: %q\n", benchTitle)
	fmt.Fprintf(&b, "output:\n  directory: %q\n", filepath.Join(dir, "site"))
	return b.String()
}

// benchTitle is the site title of every benchmark render, the same for the
// build and its floor.
const benchTitle = "docweave benchmark"
