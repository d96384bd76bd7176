package site

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site/theme"
)

// The theme's cost on a large site is measured in child processes: each
// render runs in a fresh process of this test binary, so its peak resident
// memory (the kernel's ru_maxrss) belongs to that render alone, and theme
// and floor renders take turns in the same run on the same machine.

// bench5000 is the content of the large measurement: 5,000 pages in 50
// repositories.
var bench5000 = benchShape{repos: 50, sections: 10, pages: 10}

// Environment of a measuring child process.
const (
	measureEnvProject = "DOCWEAVE_MEASURE_PROJECT" // project to render
	measureEnvTheme   = "DOCWEAVE_MEASURE_THEME"   // "theme" or "floor"
	measureEnvResult  = "DOCWEAVE_MEASURE_RESULT"  // file to write the measureResult to
)

// measureResult is what a child reports about its render.
type measureResult struct {
	Pages  int           `json:"pages"`
	Wall   time.Duration `json:"wall"`
	CPU    time.Duration `json:"cpu"`
	MaxRSS int64         `json:"max_rss_kib"` // filled in by the parent
}

// TestMain runs the tests, or, in a child started by BenchmarkRender5000,
// one measured render.
func TestMain(m *testing.M) {
	if project := os.Getenv(measureEnvProject); project != "" {
		if err := measureChild(project, os.Getenv(measureEnvTheme), os.Getenv(measureEnvResult)); err != nil {
			fmt.Fprintln(os.Stderr, "measure:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func measureChild(project, which, resultFile string) error {
	var themeFS fs.FS = theme.FS()
	params := map[string]any{}
	if which == "floor" {
		themeFS, params = floorTheme, map[string]any{"disableSearch": true}
	}
	var repos []Repository
	entries, err := os.ReadDir(filepath.Join(project, "content"))
	if err != nil {
		return err
	}
	for _, e := range entries {
		repos = append(repos, Repository{Name: e.Name(), ContentPath: e.Name(), EditURL: "https://github.com/example/" + e.Name() + "/edit/main/docs/{path}"})
	}
	publish := filepath.Join(filepath.Dir(project), "public-"+which)
	if err := os.RemoveAll(publish); err != nil {
		return err
	}
	cpu0 := processCPU()
	start := time.Now()
	res, err := render(context.Background(), Options{
		ProjectDir:   project,
		PublishDir:   publish,
		Generator:    config.Generator{Title: "Bench", Params: params},
		Repositories: repos,
		Logger:       zerolog.Nop(),
	}, themeFS)
	if err != nil {
		return err
	}
	out := measureResult{Pages: res.Pages, Wall: time.Since(start), CPU: processCPU() - cpu0}
	data, err := json.Marshal(out)
	if err != nil {
		return err
	}
	return os.WriteFile(resultFile, data, 0o644)
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRender5000 renders 5,000 pages with docweave's theme and with
// the one-line floor theme, alternately, each render in its own process
// (after one unmeasured render of each to fill Hugo's caches), and reports
// for both the pages per second (wall time), the CPU time and the peak
// resident memory, and the theme's cost as a multiple of the floor's.
// Run it alone: go test ./site -run '^$' -bench Render5000 -benchtime 1x
func BenchmarkRender5000(b *testing.B) {
	const rounds = 3
	dir := b.TempDir()
	projects := map[string]string{}
	pages := 0
	for _, which := range []string{"theme", "floor"} {
		p, _, n := writeBenchProject(b, filepath.Join(dir, which), bench5000)
		projects[which], pages = p, n
	}
	results := map[string][]measureResult{}
	for b.Loop() {
		for round := 0; round <= rounds; round++ {
			for _, which := range []string{"theme", "floor"} {
				r := measureInChild(b, projects[which], which)
				if r.Pages != pages {
					b.Fatalf("%s: rendered %d pages, want %d", which, r.Pages, pages)
				}
				if round > 0 { // round 0 warms Hugo's caches
					results[which] = append(results[which], r)
				}
			}
		}
	}
	theme, floor := median(results["theme"]), median(results["floor"])
	b.ReportMetric(float64(pages)/theme.Wall.Seconds(), "theme-pages/s")
	b.ReportMetric(float64(pages)/floor.Wall.Seconds(), "floor-pages/s")
	b.ReportMetric(theme.CPU.Seconds(), "theme-cpu-s")
	b.ReportMetric(floor.CPU.Seconds(), "floor-cpu-s")
	b.ReportMetric(float64(theme.MaxRSS)/1024, "theme-peak-MiB")
	b.ReportMetric(float64(floor.MaxRSS)/1024, "floor-peak-MiB")
	b.ReportMetric(theme.Wall.Seconds()/floor.Wall.Seconds(), "wall-x-floor")
	b.ReportMetric(theme.CPU.Seconds()/floor.CPU.Seconds(), "cpu-x-floor")
	b.ReportMetric(float64(theme.MaxRSS)/float64(floor.MaxRSS), "mem-x-floor")
	b.Logf("%d pages, median of %d renders each: theme %.2fs wall, %.2fs CPU, %.0f MiB peak; floor %.2fs wall, %.2fs CPU, %.0f MiB peak",
		pages, rounds, theme.Wall.Seconds(), theme.CPU.Seconds(), float64(theme.MaxRSS)/1024,
		floor.Wall.Seconds(), floor.CPU.Seconds(), float64(floor.MaxRSS)/1024)
}

// measureInChild renders project in a child process and returns its
// measurements with the child's peak resident memory.
func measureInChild(b *testing.B, project, which string) measureResult {
	b.Helper()
	resultFile := filepath.Join(b.TempDir(), "result.json")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), measureEnvProject+"="+project, measureEnvTheme+"="+which, measureEnvResult+"="+resultFile)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s render: %v\n%s", which, err, out)
	}
	data, err := os.ReadFile(resultFile)
	if err != nil {
		b.Fatal(err)
	}
	var r measureResult
	if err := json.Unmarshal(data, &r); err != nil {
		b.Fatal(err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.MaxRSS = ru.Maxrss // KiB on Linux
	}
	return r
}

// median returns the measurement with the median wall time, and the median
// CPU time and peak memory, each taken on its own.
func median(rs []measureResult) measureResult {
	pick := func(less func(a, b measureResult) bool) measureResult {
		s := append([]measureResult(nil), rs...)
		sort.Slice(s, func(i, j int) bool { return less(s[i], s[j]) })
		return s[len(s)/2]
	}
	m := pick(func(a, b measureResult) bool { return a.Wall < b.Wall })
	m.CPU = pick(func(a, b measureResult) bool { return a.CPU < b.CPU }).CPU
	m.MaxRSS = pick(func(a, b measureResult) bool { return a.MaxRSS < b.MaxRSS }).MaxRSS
	return m
}
