package site

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site/theme"
)

// Benchmark content: benchRepos repositories of benchSections directories
// with benchPagesPerSection pages each.
const (
	benchRepos           = 20
	benchSections        = 5
	benchPagesPerSection = 10
)

// floorTheme is the "Hugo alone" baseline: one-line templates, no menu, no
// search index, so the difference to our theme is the theme's own cost.
var floorTheme = fstest.MapFS{
	"layouts/single.html": {Data: []byte(`<h1>{{ .Title }}</h1>{{ .Content }}`)},
	"layouts/list.html":   {Data: []byte(`<h1>{{ .Title }}</h1>{{ .Content }}`)},
}

// writeBenchProject generates the benchmark content and returns the
// project directory, the repositories and the number of Markdown pages.
func writeBenchProject(b *testing.B) (string, []Repository, int) {
	b.Helper()
	project := filepath.Join(b.TempDir(), "project")
	var repos []Repository
	pages := 0
	for r := range benchRepos {
		name := fmt.Sprintf("repo%02d", r)
		repos = append(repos, Repository{Name: name, ContentPath: name})
		for s := range benchSections {
			for p := range benchPagesPerSection {
				file := filepath.Join(project, "content", name, fmt.Sprintf("section-%d", s), fmt.Sprintf("page-%02d.md", p))
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					b.Fatal(err)
				}
				if err := os.WriteFile(file, []byte(benchPage(name, s, p)), 0o644); err != nil {
					b.Fatal(err)
				}
				pages++
			}
		}
	}
	return project, repos, pages
}

// benchPage is a page of typical documentation shape: a title heading,
// paragraphs, a list, a code block and links to a sibling page.
func benchPage(repo string, section, page int) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "# %s section %d page %d\n\n", repo, section, page)
	for i := range 4 {
		fmt.Fprintf(&sb, "## Part %d\n\nThis paragraph explains part %d of the topic with **bold** and `code`, "+
			"then points to [the next page](page-%02d.md) and [an anchor](#part-%d).\n\n", i, i, (page+1)%benchPagesPerSection, i)
		sb.WriteString("- first item\n- second item\n- third item\n\n```go\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n```\n\n")
	}
	return sb.String()
}

func benchRender(b *testing.B, themeFS fs.FS, params map[string]any) {
	project, repos, pages := writeBenchProject(b)
	publishRoot := b.TempDir()
	opts := Options{
		ProjectDir:   project,
		Generator:    config.Generator{Title: "Bench", Params: params},
		Repositories: repos,
		Logger:       zerolog.Nop(),
	}
	i := 0
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
}

// BenchmarkRenderTheme renders the generated content with docweave's theme.
func BenchmarkRenderTheme(b *testing.B) {
	benchRender(b, theme.FS(), nil)
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
	project, repos, _ := writeBenchProject(b)
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
