package site

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site/internal/assembly"
)

// pushFarm renders a farm of repos units of pages pages each, the way
// the bench's farm writes them (front matter with tags and a category,
// sections, prose, code), and returns the site's repositories and a
// function that renders unit r again in edition e (a page added, then
// edited).
func pushFarm(b testing.TB, repos, pages int) ([]Repository, []AssembledUnit, func(r, e int) AssembledUnit) {
	b.Helper()
	var list []Repository
	for r := 0; r < repos; r++ {
		name := fmt.Sprintf("repo%02d", r)
		list = append(list, Repository{Name: name, ContentPath: name})
	}
	render := func(r, edition int) AssembledUnit {
		name := list[r].Name
		project := filepath.Join(b.TempDir(), "project")
		files := map[string]string{"_index.md": "---\ntitle: " + name + "\n---\n\nThe handbook of " + name + ".\n"}
		sections := []string{"guide", "reference", "howto", "concepts"}
		for p := 0; p < pages; p++ {
			sec := sections[p%len(sections)]
			body := fmt.Sprintf("---\ntitle: \"%s %s page %d\"\ndescription: \"Part %d\"\ntags: [%s, %s, t%d]\ncategories: [%s]\nweight: %d\n---\n\n", name, sec, p, p, name, sec, p%7, sec, p)
			for h := 1; h <= 3; h++ {
				body += fmt.Sprintf("## Step %d\n\nWork through stage %d of %s with care; every stage builds on the last.\n\n```go\nfunc stage%d() {}\n```\n\n", h, h, name, h)
			}
			files[fmt.Sprintf("%s/page%03d.md", sec, p)] = body
		}
		if edition > 0 {
			files["guide/changes.md"] = fmt.Sprintf("---\ntitle: Changes\ntags: [changes]\n---\n\nEdition %d of %s.\n", edition, name)
		}
		for rel, body := range files {
			file := filepath.Join(project, "content", name, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		published := filepath.Join(b.TempDir(), "public")
		res, err := RenderUnit(context.Background(), UnitOptions{ProjectDir: project, PublishDir: published,
			Generator: pushGenerator(), Repositories: list, Unit: name, Logger: zerolog.Nop()})
		if err != nil {
			b.Fatal(err)
		}
		return AssembledUnit{Path: name, ID: fmt.Sprintf("%s-%d", name, edition), Facts: res.Facts, Search: res.Search,
			Place: func(_ context.Context, to string) error { return assembly.LinkTree(published, to) }}
	}
	var units []AssembledUnit
	for r := range list {
		units = append(units, render(r, 0))
	}
	return list, units, render
}

func pushGenerator() config.Generator {
	return config.Generator{Title: "Farm", Taxonomies: map[string]string{"tag": "tags", "category": "categories"}}
}

// TestMeasurePush times assemblies after a push to one repository of a
// farm, alternating two publish directories as the assemble stage does.
// DOCWEAVE_MEASURE_PUSH=REPOSxPAGES runs it.
func TestMeasurePush(t *testing.T) {
	size := os.Getenv("DOCWEAVE_MEASURE_PUSH")
	if size == "" {
		t.Skip("DOCWEAVE_MEASURE_PUSH=REPOSxPAGES runs it")
	}
	var repos, pages int
	if _, err := fmt.Sscanf(size, "%dx%d", &repos, &pages); err != nil {
		t.Fatal(err)
	}
	list, units, render := pushFarm(t, repos, pages)
	work := t.TempDir()
	dirs := []string{filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")}
	placed := []*PlacedSite{nil, nil}
	assemble := func(i int) string {
		start, cpu := time.Now(), processCPU()
		res, err := Assemble(context.Background(), AssembleOptions{WorkDir: work, PublishDir: dirs[i%2], Placed: placed[i%2],
			Generator: pushGenerator(), Repositories: list, Units: units, Logger: zerolog.Nop()})
		if err != nil {
			t.Fatal(err)
		}
		if prev := placed[(i+1)%2]; prev != nil {
			had := map[string]string{}
			for _, f := range prev.AssemblyFiles {
				had[f.Rel] = f.Hash
			}
			var changed []string
			for _, f := range res.Placed.AssemblyFiles {
				if had[f.Rel] != f.Hash {
					changed = append(changed, f.Rel)
				}
			}
			t.Logf("assembly files changed: %v", changed)
		}
		placed[i%2] = res.Placed
		took := fmt.Sprintf("%v wall, %v CPU", time.Since(start).Round(time.Millisecond), (processCPU() - cpu).Round(time.Millisecond))
		if i == 0 {
			dirs := map[string]int{}
			for _, f := range res.Placed.AssemblyFiles {
				dirs[strings.SplitN(f.Rel, "/", 2)[0]]++
			}
			t.Logf("assembly files: %d %v; search files %d", len(res.Placed.AssemblyFiles), dirs, len(res.Placed.SearchFiles))
		}
		return took
	}
	t.Logf("cold assembly: %v", assemble(0))
	t.Logf("second directory: %v", assemble(1))
	if prof := os.Getenv("DOCWEAVE_MEASURE_PUSH_PROFILE"); prof != "" {
		f, err := os.Create(prof)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			t.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	for i := 2; i < 10; i++ {
		r := i % repos
		units[r] = render(r, i)
		t.Logf("push %d to %s: %v", i, list[r].Name, assemble(i))
	}
}
