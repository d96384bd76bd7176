package links

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docweave/docweave/site/internal/model"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// elsewhereSite is a site of three repositories: handbook (with an
// original site and a forge address), engine (versioned, publishing a
// longer prefix of the same original site, on another forge) and plain
// (neither). Only the tree of the unit being rendered is known.
func elsewhereSite(pages, files, dirs []string) (map[string]bool, map[string]bool, map[string]bool, []model.Repository) {
	set := func(list []string) map[string]bool {
		m := map[string]bool{}
		for _, p := range list {
			m[p] = true
		}
		return m
	}
	repos := []model.Repository{
		{Name: "handbook", ContentPath: "handbook", DocRoots: []string{"docs"}, WebURL: "https://github.com/acme/handbook",
			OriginalSite: &model.OriginalSite{URL: "https://handbook.example/", Paths: map[string]string{"/guide/": "docs/", "/pictures/": "static/pictures/"}}},
		{Name: "engine", ContentPath: "engine", DocRoots: []string{"documentation"}, WebURL: "https://gitlab.example/acme/engine",
			OriginalSite: &model.OriginalSite{URL: "https://handbook.example", Paths: map[string]string{"/guide/engine/": "documentation"}},
			Versions:     []model.Version{{Name: "main", Slug: "main", Default: true}, {Name: "release-1", Slug: "v1"}}},
		{Name: "plain", ContentPath: "plain", DocRoots: []string{"docs"}},
	}
	return set(pages), set(files), set(dirs), repos
}

// resolveGolden resolves the links of testdata/elsewhere/<name> as the
// page rel of the unit u and compares them with <name>.golden.
func resolveGolden(t *testing.T, name, rel string, u Unit) {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", "elsewhere", name))
	if err != nil {
		t.Fatal(err)
	}
	pairs, issues, _ := Resolve(rel, body, 0, u)
	var b strings.Builder
	for _, p := range pairs {
		fmt.Fprintf(&b, "%s\n  -> %s\n", p[0], p[1])
	}
	for _, is := range issues {
		fmt.Fprintf(&b, "%s %s: %s\n", is.Code, is.Path, is.Message)
	}
	golden := filepath.Join("testdata", "elsewhere", strings.TrimSuffix(name, ".md")+".golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("links of %s:\n%s\nwant (%s):\n%s", name, b.String(), golden, want)
	}
}

// Links written as the original site's URLs (rooted or absolute, with or
// without .md or a trailing slash, in another case) and as forge file
// pages lead to the page here, in this repository or another one; what
// no repository publishes leads to the original site.
func TestLinksLeadAcrossRepositories(t *testing.T) {
	pages, files, dirs, repos := elsewhereSite(
		[]string{"handbook/index.md", "handbook/setup/install.md", "handbook/reference/Glossary.md"},
		[]string{"handbook/_files/static/pictures/map.png"},
		[]string{"handbook", "handbook/setup", "handbook/reference", "handbook/_files", "handbook/_files/static", "handbook/_files/static/pictures"})
	u := Unit{Root: "handbook", DocRoots: []string{"docs"}, Pages: pages, Files: files, Dirs: dirs,
		Site: NewSite(repos, "/", pages)}
	resolveGolden(t, "install.md", "handbook/setup/install.md", u)
}

// Without an original site, a rooted link in the style of a page's URL
// leads to the one page it matches, from the documentation root or the
// repository's root; one that matches two pages, or none, is reported.
func TestRootedPageURLsResolveToTheOnePage(t *testing.T) {
	pages, files, dirs, repos := elsewhereSite(
		[]string{"plain/index.md", "plain/intro.md", "plain/guide/naming.md", "plain/guide/spelling.md", "plain/guide/Spelling.md"},
		nil, []string{"plain", "plain/guide"})
	u := Unit{Root: "plain", DocRoots: []string{"docs"}, Pages: pages, Files: files, Dirs: dirs,
		Site: NewSite(repos, "/", pages)}
	resolveGolden(t, "intro.md", "plain/intro.md", u)
}

// A site below a path of its host links to other units' pages below it.
func TestPageURLOfAnotherUnit(t *testing.T) {
	s := NewSite(nil, "/handbook/", nil)
	for rel, want := range map[string]string{
		"":                   "/handbook/docs/engine/main/",
		"tuning/cache.md":    "/handbook/docs/engine/main/tuning/cache/",
		"tuning/README.md":   "/handbook/docs/engine/main/tuning/",
		"tuning/cache/":      "/handbook/docs/engine/main/tuning/cache/",
		"images/a b.png":     "/handbook/docs/engine/main/images/a%20b.png",
		"tuning/_index.md":   "/handbook/docs/engine/main/tuning/",
		"getting started.md": "/handbook/docs/engine/main/getting%20started/",
	} {
		if got := s.pageURL("engine/main", rel); got != want {
			t.Errorf("pageURL(%q) = %q, want %q", rel, got, want)
		}
	}
}
