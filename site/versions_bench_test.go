package site

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
)

// benchVersions is the shape of the versioning measurement: one repository
// in 20 versions of 50 pages (5 directories of 10), against 20 separate
// repositories of the same 50 pages.
var benchVersions = benchShape{repos: 20, sections: 5, pages: 10}

// writeVersionedBenchProject generates one repository, "multi", with
// shape.repos versions of shape.sections×shape.pages pages each (the same
// pages as writeBenchProject writes per repository), under
// content/multi/<slug>/. Every skip-th page is left out of every version but
// the default one, so some switcher entries fall back to a version's
// index (0: none left out).
func writeVersionedBenchProject(tb testing.TB, dir string, shape benchShape, skip int) (string, []Repository, int) {
	tb.Helper()
	project := filepath.Join(dir, "project")
	repo := Repository{Name: "multi", ContentPath: "multi"}
	pages := 0
	for v := range shape.repos {
		version := Version{Name: fmt.Sprintf("v%d.0.0", shape.repos-v), Tag: true, Commit: strings.Repeat(fmt.Sprintf("%x", v%16), 40)}
		if v == 0 {
			version = Version{Name: "main", Default: true, Commit: strings.Repeat("f", 40)}
		}
		version.Slug = version.Name
		version.EditURL = "https://github.com/example/multi/edit/" + version.Name + "/docs/{path}"
		repo.Versions = append(repo.Versions, version)
		n := 0
		for s := range shape.sections {
			for p := range shape.pages {
				n++
				if v > 0 && skip > 0 && n%skip == 0 {
					continue
				}
				file := filepath.Join(project, "content", "multi", version.Slug, fmt.Sprintf("section-%d", s), fmt.Sprintf("page-%02d.md", p))
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					tb.Fatal(err)
				}
				if err := os.WriteFile(file, []byte(benchPage("multi", s, p, shape.pages)), 0o644); err != nil {
					tb.Fatal(err)
				}
				pages++
			}
		}
	}
	return project, []Repository{repo}, pages
}

// TestManyVersionsRender renders one repository in 20 versions and checks
// the switcher of a page that only some versions have.
func TestManyVersionsRender(t *testing.T) {
	project, repos, pages := writeVersionedBenchProject(t, t.TempDir(), benchShape{repos: 20, sections: 1, pages: 3}, 3)
	opts := Options{ProjectDir: project, PublishDir: filepath.Join(t.TempDir(), "public"), Generator: config.Generator{Title: "Many"}, Repositories: repos, Logger: zerolog.Nop()}
	res, err := Render(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Pages != pages {
		t.Errorf("rendered %d pages, want %d", res.Pages, pages)
	}
	// page-02 (the third page) is only in main.
	switcher := between(readPublished(t, opts.PublishDir, "docs/multi/main/section-0/page-02/index.html"), `<nav class="versions"`, "</nav>")
	if n := strings.Count(switcher, `class="version-fallback"`); n != 19 {
		t.Errorf("switcher of a page only main has: %d fallback entries, want 19:\n%s", n, switcher)
	}
	switcher = between(readPublished(t, opts.PublishDir, "docs/multi/v7.0.0/section-0/page-01/index.html"), `<nav class="versions"`, "</nav>")
	if n := strings.Count(switcher, "<li>"); n != 20 {
		t.Errorf("switcher has %d entries, want 20", n)
	}
	if strings.Contains(switcher, "version-fallback") || !strings.Contains(switcher, `<a href="/docs/multi/v19.0.0/section-0/page-01/">v19.0.0</a>`) {
		t.Errorf("switcher of a page every version has does not link to the same page:\n%s", switcher)
	}
}

// BenchmarkRenderVersions measures what versioning costs: one repository
// in 20 versions of 50 pages against 20 repositories of the same 50 pages
// (1,000 pages either way), rendered with the theme alternately in the
// same process after one unmeasured render of each, and reports the median
// wall and CPU time of each and their ratios (CPU time varies less on a
// shared machine).
// Run it alone: go test ./site -run '^$' -bench RenderVersions -benchtime 1x
func BenchmarkRenderVersions(b *testing.B) {
	const rounds = 3
	type project struct {
		dir   string
		repos []Repository
		pages int
	}
	projects := map[string]project{}
	dir, repos, pages := writeVersionedBenchProject(b, filepath.Join(b.TempDir(), "versions"), benchVersions, 0)
	projects["versions"] = project{dir, repos, pages}
	dir, repos, pages = writeBenchProject(b, filepath.Join(b.TempDir(), "repos"), benchVersions)
	projects["repos"] = project{dir, repos, pages}
	if projects["versions"].pages != projects["repos"].pages {
		b.Fatalf("%d versioned pages against %d: the projects differ in size", projects["versions"].pages, projects["repos"].pages)
	}
	walls, cpus := map[string][]time.Duration{}, map[string][]time.Duration{}
	for b.Loop() {
		for round := 0; round <= rounds; round++ {
			for _, which := range []string{"versions", "repos"} {
				p := projects[which]
				opts := Options{ProjectDir: p.dir, PublishDir: filepath.Join(b.TempDir(), "public"), Generator: config.Generator{Title: "Bench"}, Repositories: p.repos, Logger: zerolog.Nop()}
				start, cpuStart := time.Now(), cpuTime(b)
				res, err := Render(context.Background(), opts)
				wall, cpu := time.Since(start), cpuTime(b)-cpuStart
				if err != nil {
					b.Fatalf("%s: %v", which, err)
				}
				if res.Pages != p.pages {
					b.Fatalf("%s: rendered %d pages, want %d", which, res.Pages, p.pages)
				}
				if round > 0 { // round 0 warms Hugo's caches
					walls[which] = append(walls[which], wall)
					cpus[which] = append(cpus[which], cpu)
				}
			}
		}
	}
	versions, separate := medianDuration(walls["versions"]), medianDuration(walls["repos"])
	versionsCPU, separateCPU := medianDuration(cpus["versions"]), medianDuration(cpus["repos"])
	b.ReportMetric(versions.Seconds(), "versions-s")
	b.ReportMetric(separate.Seconds(), "repos-s")
	b.ReportMetric(versions.Seconds()/separate.Seconds(), "versions-x-repos")
	b.ReportMetric(versionsCPU.Seconds()/separateCPU.Seconds(), "cpu-versions-x-repos")
	b.Logf("%d pages, median of %d renders each: 1 repository × 20 versions %.2fs wall, %.2fs CPU; 20 repositories %.2fs wall, %.2fs CPU (%.2f× wall, %.2f× CPU)",
		projects["versions"].pages, rounds, versions.Seconds(), versionsCPU.Seconds(), separate.Seconds(), separateCPU.Seconds(),
		versions.Seconds()/separate.Seconds(), versionsCPU.Seconds()/separateCPU.Seconds())
}

func medianDuration(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
