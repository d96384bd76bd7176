package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site"
)

// floorSample is one run of a floor.
type floorSample struct {
	Seconds float64
	// UserCPUSeconds is the user CPU of every child the floor ran: the git
	// clones (with their helpers) and the render process.
	UserCPUSeconds float64
	RSSMB          float64 // the render process's peak
	Pages          int
	// RenderSeconds is the Hugo render alone, timed inside the child.
	RenderSeconds float64
}

// floor does the work of a cold build with the plainest tools: the git
// command line clones every repository (depth 1, like the build) at the
// build's clone concurrency, the documentation folders are copied into a
// Hugo project's content/ directory exactly where the build lays them out,
// and a child process renders that project through `docweave-bench
// render-floor`. With our theme (minimal false) it is the same Hugo and
// the same theme the build uses, so what docweave adds on top (the broker,
// stages, artifact store, reports, fingerprints) is the difference; with
// minimal it renders with one-line templates (site.RenderWholeMinimal):
// the true floor, what a user would wait for with git and Hugo alone.
// Clones, copies and render are one sample, timed together.
func (f *sizeFarm) floor(ctx context.Context, round int, minimal bool) (floorSample, error) {
	name := fmt.Sprintf("floor-%d", round)
	if minimal {
		name = fmt.Sprintf("true-floor-%d", round)
	}
	dir := filepath.Join(f.work, name)
	defer os.RemoveAll(dir)
	clones := filepath.Join(dir, "clones")
	project := filepath.Join(dir, "project")
	if err := os.MkdirAll(clones, 0o755); err != nil {
		return floorSample{}, fmt.Errorf("%s: %w", name, err)
	}
	// An empty global configuration: the clones see no settings of the
	// machine's user, as the build's do not.
	gitConfig := filepath.Join(dir, "gitconfig")
	if err := os.WriteFile(gitConfig, nil, 0o644); err != nil {
		return floorSample{}, fmt.Errorf("%s: %w", name, err)
	}
	env := []string{"GIT_CONFIG_GLOBAL=" + gitConfig, "GIT_CONFIG_NOSYSTEM=1"}
	var mu sync.Mutex
	var cloneCPU time.Duration
	start := time.Now()
	err := inParallel(len(f.repos), f.opts.CloneConcurrency, func(i int) error {
		repo := f.repos[i].Name
		run, err := runChild(ctx, "git", env, "clone", "-q", "--depth", "1", f.git.URL(repo), filepath.Join(clones, repo))
		if err != nil {
			return err
		}
		mu.Lock()
		cloneCPU += run.UserCPU
		mu.Unlock()
		return copyTree(filepath.Join(clones, repo, "docs"), filepath.Join(project, "content", f.contentPath(repo)))
	})
	if err != nil {
		return floorSample{}, fmt.Errorf("%s of %s: %w", name, f.size, err)
	}
	args := []string{"render-floor", "--project", project, "--publish", filepath.Join(dir, "public"), "--title", benchTitle}
	for _, r := range f.repos {
		args = append(args, "--repository", r.Name+"="+f.contentPath(r.Name))
	}
	if minimal {
		args = append(args, "--minimal")
	}
	run, res, err := f.renderFloor(ctx, args)
	if err != nil {
		return floorSample{}, fmt.Errorf("%s of %s: %w", name, f.size, err)
	}
	return floorSample{
		Seconds:        time.Since(start).Seconds(),
		UserCPUSeconds: (cloneCPU + run.UserCPU).Seconds(),
		RSSMB:          float64(run.MaxRSSB) / (1 << 20),
		Pages:          res.Pages,
		RenderSeconds:  res.RenderSeconds,
	}, nil
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
