package site

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site/theme"
)

// benchShape is the size of generated benchmark content: repos
// repositories of sections directories with pages pages each.
type benchShape struct{ repos, sections, pages int }

// bench1000 is the content of the in-process benchmarks: 1,000 pages.
var bench1000 = benchShape{repos: 20, sections: 5, pages: 10}

// floorTheme is the "Hugo alone" baseline: one-line templates, no menu, no
// search index, so the difference to our theme is the theme's own cost.
var floorTheme = fstest.MapFS{
	"layouts/single.html": {Data: []byte(`<h1>{{ .Title }}</h1>{{ .Content }}`)},
	"layouts/list.html":   {Data: []byte(`<h1>{{ .Title }}</h1>{{ .Content }}`)},
}

// writeBenchProject generates benchmark content under dir and returns the
// project directory, the repositories and the number of Markdown pages.
func writeBenchProject(tb testing.TB, dir string, shape benchShape) (string, []Repository, int) {
	tb.Helper()
	project := filepath.Join(dir, "project")
	var repos []Repository
	pages := 0
	for r := range shape.repos {
		name := fmt.Sprintf("repo%02d", r)
		repos = append(repos, Repository{Name: name, ContentPath: name, EditURL: "https://github.com/example/" + name + "/edit/main/docs/{path}"})
		for s := range shape.sections {
			for p := range shape.pages {
				file := filepath.Join(project, "content", name, fmt.Sprintf("section-%d", s), fmt.Sprintf("page-%02d.md", p))
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					tb.Fatal(err)
				}
				if err := os.WriteFile(file, []byte(benchPage(name, s, p, shape.pages)), 0o644); err != nil {
					tb.Fatal(err)
				}
				pages++
			}
		}
	}
	return project, repos, pages
}

// benchPage is a page of typical documentation shape: a title heading,
// paragraphs, a list, a code block and links to a sibling page. Every
// other page has front matter with a title and tags, so taxonomy pages and
// the front matter checks take part.
func benchPage(repo string, section, page, perSection int) string {
	var sb strings.Builder
	if page%2 == 0 {
		fmt.Fprintf(&sb, "---\ntitle: %s section %d page %d\ntags: [topic-%d, shared]\n---\n\n", repo, section, page, page%5)
	}
	fmt.Fprintf(&sb, "# %s section %d page %d\n\n", repo, section, page)
	for i := range 4 {
		fmt.Fprintf(&sb, "## Part %d\n\nThis paragraph explains part %d of the topic with **bold** and `code`, "+
			"then points to [the next page](page-%02d.md) and [an anchor](#part-%d).\n\n", i, i, (page+1)%perSection, i)
		sb.WriteString("- first item\n- second item\n- third item\n\n```go\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n```\n\n")
	}
	return sb.String()
}

func benchRender(b *testing.B, themeFS fs.FS, params map[string]any) {
	benchRenderWith(b, render, themeFS, params)
}

// benchRenderWith measures one way of rendering the generated content.
func benchRenderWith(b *testing.B, render func(context.Context, Options, fs.FS) (Result, error), themeFS fs.FS, params map[string]any) {
	project, repos, pages := writeBenchProject(b, b.TempDir(), bench1000)
	publishRoot := b.TempDir()
	opts := Options{
		ProjectDir:   project,
		Generator:    config.Generator{Title: "Bench", Params: params},
		Repositories: repos,
		Logger:       zerolog.Nop(),
	}
	i := 0
	cpuStart := cpuTime(b)
	for b.Loop() {
		i++
		opts.PublishDir = filepath.Join(publishRoot, fmt.Sprintf("public-%d", i))
		res, err := render(context.Background(), opts, themeFS)
		if err != nil {
			b.Fatal(err)
		}
		if res.Pages != pages {
			b.Fatalf("rendered %d pages, want %d", res.Pages, pages)
		}
		b.StopTimer()
		if err := os.RemoveAll(opts.PublishDir); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(pages*b.N)/b.Elapsed().Seconds(), "pages/s")
	b.ReportMetric((cpuTime(b)-cpuStart).Seconds()*1000/float64(b.N), "cpu-ms/op")
}

// cpuTime is the user and system CPU time the process has used so far.
// Reported beside wall time because on a shared machine the CPU time of a
// render varies far less than its wall time.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRenderTheme renders the generated content with docweave's theme,
// in parts (one Hugo build per repository, then the assembly) as the
// pipeline does, in one process and one unit after the other.
func BenchmarkRenderTheme(b *testing.B) {
	benchRender(b, theme.FS(), nil)
}

// BenchmarkRenderThemeWhole renders the same content with the same theme
// in one Hugo build (RenderWhole): what rendering in parts costs more.
func BenchmarkRenderThemeWhole(b *testing.B) {
	benchRenderWith(b, renderWhole, theme.FS(), nil)
}

// BenchmarkRenderFloor renders the same content through the same code path
// with one-line templates: the cost of Hugo alone.
func BenchmarkRenderFloor(b *testing.B) {
	benchRender(b, floorTheme, map[string]any{"disableSearch": true})
}

// BenchmarkRenderHeap renders the generated content 10 times in a row and
// reports the live heap (after a forced GC) after the first and the last
// render; run it with -benchtime=1x. A heap that stays flat shows that no
// rendered site outlives its Render call.
func BenchmarkRenderHeap(b *testing.B) {
	project, repos, _ := writeBenchProject(b, b.TempDir(), bench1000)
	opts := Options{ProjectDir: project, Generator: config.Generator{Title: "Bench"}, Repositories: repos, Logger: zerolog.Nop()}
	var heap []float64
	for b.Loop() {
		heap = heap[:0]
		for i := range 10 {
			opts.PublishDir = filepath.Join(b.TempDir(), fmt.Sprintf("public-%d", i))
			if _, err := Render(context.Background(), opts); err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			heap = append(heap, float64(ms.HeapAlloc)/(1<<20))
		}
	}
	b.Logf("live heap after each of 10 renders (MiB): %.1f", heap)
	b.ReportMetric(heap[0], "heapMiB-after-1")
	b.ReportMetric(heap[len(heap)-1], "heapMiB-after-10")
}
