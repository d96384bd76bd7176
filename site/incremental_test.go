package site

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/site/internal/assembly"
)

// incrementalSite is a site's inputs as a test changes them: its
// repositories and each unit's Markdown files.
type incrementalSite struct {
	repos []Repository
	files map[string]map[string]string // unit → file below it → content
}

// termPage is a page of unit with the given title and tags.
func termPage(title string, tags ...string) string {
	front := "---\ntitle: " + title + "\n"
	if len(tags) > 0 {
		front += "tags: ["
		for i, t := range tags {
			if i > 0 {
				front += ", "
			}
			front += t
		}
		front += "]\n"
	}
	return front + "---\n\nWhat " + title + " covers, in a few words.\n"
}

// renderIncrementalUnits renders every unit of s, reusing the rendering
// of a unit whose inputs a cache holds (as the pipeline reuses a stored
// unit), and returns them ready for an assembly.
func renderIncrementalUnits(t *testing.T, s incrementalSite, cache map[string]AssembledUnit) []AssembledUnit {
	t.Helper()
	var units []AssembledUnit
	for _, u := range unitPaths(s.repos) {
		files := s.files[u]
		key := fmt.Sprint(s.repos, u, files)
		if cached, ok := cache[key]; ok {
			units = append(units, cached)
			continue
		}
		project := filepath.Join(t.TempDir(), "project")
		for _, rel := range slices.Sorted(maps.Keys(files)) {
			file := filepath.Join(project, "content", filepath.FromSlash(u), filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(files[rel]), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		published := filepath.Join(t.TempDir(), "public")
		res, err := RenderUnit(context.Background(), UnitOptions{ProjectDir: project, PublishDir: published,
			Generator: fixtureGenerator(), Repositories: s.repos, Unit: u, Logger: zerolog.Nop()})
		if err != nil {
			t.Fatalf("render %s: %v", u, err)
		}
		unit := AssembledUnit{Path: u, ID: fmt.Sprintf("%s@%d", u, len(cache)), Facts: res.Facts, Search: res.Search,
			Place: func(_ context.Context, to string) error { return assembly.LinkTree(published, to) }}
		cache[key] = unit
		units = append(units, unit)
	}
	return units
}

// unitPaths are the content paths of the repositories' units.
func unitPaths(repos []Repository) []string {
	var out []string
	for _, r := range repos {
		if len(r.Versions) == 0 {
			out = append(out, r.ContentPath)
		}
		for _, v := range r.Versions {
			out = append(out, r.ContentPath+"/"+v.Slug)
		}
	}
	return out
}

// TestIncrementalAssemblyEqualsAFreshOne: assemblies into the two
// directories the assemble stage alternates, each starting from what the
// directory held two sites before, give, byte for byte and file for file,
// the site an assembly from scratch makes of the same units — while a
// page's text changes, a page gains a tag and a new title, a repository
// joins, one leaves, a version is added and the repositories' update
// times and page counts change. The pushes that change no term of a
// page leave the other term pages as they were (TermsReused).
func TestIncrementalAssemblyEqualsAFreshOne(t *testing.T) {
	day := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	s := incrementalSite{
		repos: []Repository{
			{Name: "alpha", ContentPath: "alpha", Updated: day},
			{Name: "beta", ContentPath: "beta", Updated: day},
			{Name: "gamma", ContentPath: "gamma", Updated: day, Versions: []Version{
				{Name: "main", Slug: "main", Default: true}, {Name: "v1", Slug: "v1"}}},
		},
		files: map[string]map[string]string{
			"alpha": {"_index.md": termPage("Alpha"), "setup.md": termPage("Setting up", "install", "shared"),
				"guide/tuning.md": termPage("Tuning", "shared")},
			"beta":       {"_index.md": termPage("Beta"), "start.md": termPage("Starting", "shared", "install")},
			"gamma/main": {"_index.md": termPage("Gamma"), "api.md": termPage("The API", "reference")},
			"gamma/v1":   {"_index.md": termPage("Gamma"), "api.md": termPage("The old API", "reference")},
		},
	}
	cache := map[string]AssembledUnit{}
	work := t.TempDir()
	dirs := []string{filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")}
	placed := []*PlacedSite{nil, nil}
	round := 0
	assemble := func(what string) AssembleResult {
		t.Helper()
		units := renderIncrementalUnits(t, s, cache)
		i := round % 2
		round++
		res, err := Assemble(context.Background(), AssembleOptions{WorkDir: work, PublishDir: dirs[i], Placed: placed[i],
			Generator: fixtureGenerator(), Repositories: s.repos, Units: units, Logger: zerolog.Nop()})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		placed[i] = res.Placed
		freshDir := filepath.Join(t.TempDir(), "fresh")
		if _, err := Assemble(context.Background(), AssembleOptions{WorkDir: t.TempDir(), PublishDir: freshDir,
			Generator: fixtureGenerator(), Repositories: s.repos, Units: units, Logger: zerolog.Nop()}); err != nil {
			t.Fatalf("%s, from scratch: %v", what, err)
		}
		got, want := filesOnDisk(t, dirs[i]), filesOnDisk(t, freshDir)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: the site differs from one assembled from scratch:\n%s", what, fileDiff(got, want))
		}
		if fmt.Sprint(got) != fmt.Sprint(res.Placed.FileHashes()) {
			t.Errorf("%s: the description of the directory is not what it holds", what)
		}
		return res
	}
	assemble("the first site")
	assemble("the first site, second directory")

	s.files["alpha"]["setup.md"] = termPage("Setting up", "install", "shared") + "\nOne more sentence.\n"
	s.repos[0].Updated = day.Add(time.Hour)
	if res := assemble("a page's text changed"); res.TermsReused == 0 {
		t.Errorf("a page's text changed: no term page reused")
	}

	s.files["alpha"]["guide/tuning.md"] = termPage("Tuning well", "shared", "performance")
	s.repos[0].Updated = day.Add(2 * time.Hour)
	assemble("a page's title and tags changed")

	s.files["beta"]["later.md"] = termPage("Later", "install")
	s.repos[1].Updated = day.Add(3 * time.Hour)
	assemble("a page added")

	s.repos = append(s.repos, Repository{Name: "omega", ContentPath: "omega", Updated: day.Add(4 * time.Hour)})
	s.files["omega"] = map[string]string{"_index.md": termPage("Omega"), "intro.md": termPage("Introduction", "shared")}
	assemble("a repository added")

	s.repos = slices.DeleteFunc(s.repos, func(r Repository) bool { return r.Name == "beta" })
	assemble("a repository removed")

	s.repos[1].Versions = append([]Version{{Name: "v2", Slug: "v2"}}, s.repos[1].Versions...)
	s.files["gamma/v2"] = map[string]string{"_index.md": termPage("Gamma"), "api.md": termPage("The next API", "reference", "preview")}
	assemble("a version added")

	s.files["gamma/v2"]["api.md"] = termPage("The next API", "reference")
	assemble("a version's page lost a tag")
	assemble("nothing changed")
}

// fileDiff lists the files two listings of a site do not share, or hold
// with other content.
func fileDiff(got, want []assembly.FileHash) string {
	g, w := map[string]string{}, map[string]string{}
	for _, f := range got {
		g[f.Rel] = f.Hash
	}
	for _, f := range want {
		w[f.Rel] = f.Hash
	}
	out := ""
	for rel, h := range w {
		if g[rel] == "" {
			out += "missing: " + rel + "\n"
		} else if g[rel] != h {
			out += "differs: " + rel + "\n"
		}
	}
	for rel := range g {
		if w[rel] == "" {
			out += "extra: " + rel + "\n"
		}
	}
	return out
}
