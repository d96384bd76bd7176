package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site"
)

// floorSample is one run of the floor.
type floorSample struct {
	Seconds float64
	RSSMB   float64 // the render process's peak
	Pages   int
	// RenderSeconds is the Hugo render alone with our theme, and
	// MinimalSeconds the same project rendered again with one-line
	// templates (site.RenderWholeMinimal): their ratio is our theme's cost.
	RenderSeconds, MinimalSeconds float64
}

// floor does the work of a cold build with the plainest tools: the git
// command line clones every repository (depth 1, like the build) at the
// build's clone concurrency, the documentation folders are copied into a
// Hugo project's content/ directory exactly where the build lays them out,
// and a child process renders that project with site.Render — the same
// Hugo and the same theme the build uses — through `docweave-bench
// render-floor`. What docweave adds on top (the broker, stages, artifact
// store, reports, fingerprints) is the difference between the two.
func (f *sizeFarm) floor(ctx context.Context, round int) (floorSample, error) {
	start := time.Now()
	dir := filepath.Join(f.work, fmt.Sprintf("floor-%d", round))
	defer os.RemoveAll(dir)
	clones := filepath.Join(dir, "clones")
	project := filepath.Join(dir, "project")
	if err := os.MkdirAll(clones, 0o755); err != nil {
		return floorSample{}, fmt.Errorf("floor %d: %w", round, err)
	}
	err := inParallel(len(f.repos), f.opts.CloneConcurrency, func(i int) error {
		name := f.repos[i].Name
		cmd := exec.CommandContext(ctx, "git", "clone", "-q", "--depth", "1", f.git.URL(name), filepath.Join(clones, name))
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git clone %s: %w: %s", name, err, out)
		}
		return copyTree(filepath.Join(clones, name, "docs"), filepath.Join(project, "content", f.contentPath(name)))
	})
	if err != nil {
		return floorSample{}, fmt.Errorf("floor %d of %s: %w", round, f.size, err)
	}
	args := func(publish string) []string {
		a := []string{"render-floor", "--project", project, "--publish", filepath.Join(dir, publish), "--title", benchTitle}
		for _, r := range f.repos {
			a = append(a, "--repository", r.Name+"="+f.contentPath(r.Name))
		}
		return a
	}
	run, res, err := f.renderFloor(ctx, args("public"))
	if err != nil {
		return floorSample{}, fmt.Errorf("floor %d of %s: %w", round, f.size, err)
	}
	sample := floorSample{Seconds: time.Since(start).Seconds(), RSSMB: float64(run.MaxRSSB) / (1 << 20), Pages: res.Pages, RenderSeconds: res.RenderSeconds}
	// The same project once more with one-line templates, outside the
	// floor's time: the reference for our theme's cost.
	_, minimal, err := f.renderFloor(ctx, append(args("public-minimal"), "--minimal"))
	if err != nil {
		return floorSample{}, fmt.Errorf("floor %d of %s, minimal templates: %w", round, f.size, err)
	}
	sample.MinimalSeconds = minimal.RenderSeconds
	return sample, nil
}

// renderFloor runs `docweave-bench render-floor` with args.
func (f *sizeFarm) renderFloor(ctx context.Context, args []string) (childRun, FloorResult, error) {
	run, err := runChild(ctx, f.opts.FloorBinary, nil, args...)
	if err != nil {
		return run, FloorResult{}, fmt.Errorf("render: %w", err)
	}
	var res FloorResult
	if err := json.Unmarshal(run.Stdout, &res); err != nil {
		return run, FloorResult{}, fmt.Errorf("render output %q: %w", tail(string(run.Stdout), 200), err)
	}
	return run, res, nil
}

// contentPath is where repository name's documentation sits under
// content/: what the cold build reported, or the name before it has run.
func (f *sizeFarm) contentPath(name string) string {
	if p, ok := f.contentPaths[name]; ok && p != "" {
		return p
	}
	return name
}

// FloorResult is what `docweave-bench render-floor` prints on stdout.
type FloorResult struct {
	Pages int `json:"pages"`
	Files int `json:"files"`
	// RenderSeconds is the wall time of the Hugo render in the child.
	RenderSeconds float64 `json:"render_seconds"`
}

// RenderFloor renders a prepared Hugo project with docweave's theme in one
// Hugo build (site.RenderWhole) and nothing else: the render half of the
// floor; with minimal, with one-line templates instead
// (site.RenderWholeMinimal). repositories are "name=content/path" pairs,
// as the build's render stage would pass them. When templateMetrics is not
// nil, Hugo times every template and the table goes there
// (site.Options.TemplateMetrics): where the theme's cost lies.
func RenderFloor(ctx context.Context, project, publish, title string, repositories []string, minimal bool, templateMetrics io.Writer) (FloorResult, error) {
	var repos []site.Repository
	for _, r := range repositories {
		name, path, ok := strings.Cut(r, "=")
		if !ok || name == "" || path == "" {
			return FloorResult{}, fmt.Errorf("render floor: repository %q: expected name=content/path", r)
		}
		repos = append(repos, site.Repository{Name: name, ContentPath: path})
	}
	gen := config.Default().Generator
	gen.Title = title
	render := site.RenderWhole
	if minimal {
		render = site.RenderWholeMinimal
	}
	start := time.Now()
	res, err := render(ctx, site.Options{ProjectDir: project, PublishDir: publish, Generator: gen, Repositories: repos, Logger: zerolog.Nop(), TemplateMetrics: templateMetrics})
	if err != nil {
		return FloorResult{}, fmt.Errorf("render floor %s: %w", project, err)
	}
	return FloorResult{Pages: res.Pages, Files: res.Files, RenderSeconds: time.Since(start).Seconds()}, nil
}

// copyTree copies the regular files under src to dst.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		return copyFile(p, target)
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copy %s: %w", src, err)
	}
	return out.Close()
}

// inParallel runs job(i) for every i < n with at most workers at once and
// returns the first error.
func inParallel(n, workers int, job func(i int) error) error {
	if workers < 1 {
		workers = 1
	}
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	sem := make(chan struct{}, workers)
	for i := 0; i < n; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			if err := job(i); err != nil {
				once.Do(func() { first = err })
			}
		}(i)
	}
	wg.Wait()
	return first
}
