package site

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/site/internal/assembly"
)

// renderedUnit renders one unit of repos from files (slash paths below
// content/) and returns it ready for an assembly.
func renderedUnit(t *testing.T, repos []Repository, unit string, files map[string]string) AssembledUnit {
	t.Helper()
	project := filepath.Join(t.TempDir(), "project")
	writeFiles(t, project, files)
	published := filepath.Join(t.TempDir(), "public")
	res, err := RenderUnit(context.Background(), UnitOptions{ProjectDir: project, PublishDir: published,
		Generator: fixtureGenerator(), Repositories: repos, Unit: unit, Logger: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	return AssembledUnit{Path: unit, ID: unit + "-1", Facts: res.Facts, Search: res.Search,
		Place: func(_ context.Context, to string) error { return assembly.LinkTree(published, to) }}
}

func assembleUnits(t *testing.T, repos []Repository, units ...AssembledUnit) (AssembleResult, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "site")
	res, err := Assemble(context.Background(), AssembleOptions{WorkDir: t.TempDir(), PublishDir: dir,
		Generator: fixtureGenerator(), Repositories: repos, Units: units, Logger: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	return res, dir
}

// Issue 15: the site ships one redirect map listing every alias Hugo got,
// sorted, one "from to 301" line each; Hugo's redirect pages stay.
func TestTheRedirectMapListsEveryAlias(t *testing.T) {
	repos := []Repository{{Name: "gb", ContentPath: "gb", DocRoots: []string{"docs"}}}
	unit := renderedUnit(t, repos, "gb", map[string]string{
		"content/gb/_index.md":      "# Home\n",
		"content/gb/guide/setup.md": "---\ntitle: Setup\naliases: [/about/, old-setup/]\nurl: /install\n---\nSet it up.\n",
		"content/gb/faq.md":         "---\ntitle: FAQ\naliases: [/questions.html]\n---\nAsk.\n",
	})
	res, dir := assembleUnits(t, repos, unit)
	data, err := os.ReadFile(filepath.Join(dir, assembly.RedirectsFile))
	if err != nil {
		t.Fatal(err)
	}
	want := "/docs/gb/about/ /docs/gb/guide/setup/ 301\n" +
		"/docs/gb/guide/old-setup/ /docs/gb/guide/setup/ 301\n" +
		"/docs/gb/install/ /docs/gb/guide/setup/ 301\n" +
		"/docs/gb/questions.html /docs/gb/faq/ 301\n"
	if string(data) != want {
		t.Errorf("%s:\n%s\nwant:\n%s", assembly.RedirectsFile, data, want)
	}
	if res.Redirects != 4 || len(res.Conflicts) != 0 {
		t.Errorf("redirects %d, conflicts %v", res.Redirects, res.Conflicts)
	}
	page, err := os.ReadFile(filepath.Join(dir, "docs", "gb", "about", "index.html"))
	if err != nil || !strings.Contains(string(page), `http-equiv="refresh"`) {
		t.Errorf("Hugo's redirect page is gone: %v\n%s", err, page)
	}
	found := false
	for _, f := range res.Placed.FileHashes() {
		found = found || f.Rel == assembly.RedirectsFile
	}
	if !found {
		t.Error("the placed site does not list the redirect map")
	}
}

// assembleRemembering assembles units as the next build would, with the
// URLs an earlier assembly remembered, and returns the result and the
// site's redirect map.
func assembleRemembering(t *testing.T, repos []Repository, remembered []events.PublishedURL, units ...AssembledUnit) (AssembleResult, string, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "site")
	res, err := Assemble(context.Background(), AssembleOptions{WorkDir: t.TempDir(), PublishDir: dir, Remembered: remembered,
		Generator: fixtureGenerator(), Repositories: repos, Units: units, Logger: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, assembly.RedirectsFile))
	if err != nil {
		t.Fatal(err)
	}
	return res, dir, string(data)
}

func remembers(urls []events.PublishedURL, url string) bool {
	return slices.ContainsFunc(urls, func(u events.PublishedURL) bool { return u.URL == url })
}

// checkMoved checks that old redirects to new in the map and by an HTML
// redirect page, and that old is remembered again.
func checkMoved(t *testing.T, res AssembleResult, dir, redirects, old, new string) {
	t.Helper()
	if line := old + " " + new + " 301\n"; !strings.Contains(redirects, line) {
		t.Errorf("%s lacks %q:\n%s", assembly.RedirectsFile, line, redirects)
	}
	page, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(old, "/")), "index.html"))
	if err != nil || !strings.Contains(string(page), `content="0; url=`+new+`"`) {
		t.Errorf("no redirect page at %s to %s: %v\n%s", old, new, err, page)
	}
	if !remembers(res.URLs, old) || !remembers(res.URLs, new) {
		t.Errorf("remembered URLs lack %s or %s", old, new)
	}
}

// Issue 15 (c): a file git renamed between builds (same content at a new
// path) leaves a redirect from its old URL, which stays while remembered;
// once the page is gone the URL is forgotten, never redirected to nowhere.
func TestARenamedPageIsRedirected(t *testing.T) {
	repos := []Repository{{Name: "gb", ContentPath: "gb"}}
	body := "# Setup\n\nSet it up, step by step.\n"
	first, _, _ := assembleRemembering(t, repos, nil, renderedUnit(t, repos, "gb", map[string]string{
		"content/gb/_index.md": "# Home\n", "content/gb/guide/setup.md": body, "content/gb/faq.md": "# FAQ\n",
	}))
	if !remembers(first.URLs, "/docs/gb/guide/setup/") {
		t.Fatalf("the first site's URLs are not remembered: %+v", first.URLs)
	}
	renamed := renderedUnit(t, repos, "gb", map[string]string{
		"content/gb/_index.md": "# Home\n", "content/gb/guide/install.md": body, "content/gb/faq.md": "# FAQ\n",
	})
	second, dir, redirects := assembleRemembering(t, repos, first.URLs, renamed)
	checkMoved(t, second, dir, redirects, "/docs/gb/guide/setup/", "/docs/gb/guide/install/")
	if second.Moved != 1 || len(second.Conflicts) != 0 {
		t.Errorf("moved %d, conflicts %+v; want 1 and none", second.Moved, second.Conflicts)
	}
	third, dir, redirects := assembleRemembering(t, repos, second.URLs, renamed)
	checkMoved(t, third, dir, redirects, "/docs/gb/guide/setup/", "/docs/gb/guide/install/")
	gone, _, redirects := assembleRemembering(t, repos, third.URLs, renderedUnit(t, repos, "gb", map[string]string{
		"content/gb/_index.md": "# Home\n", "content/gb/faq.md": "# FAQ\n",
	}))
	if redirects != "" || remembers(gone.URLs, "/docs/gb/guide/setup/") || remembers(gone.URLs, "/docs/gb/guide/install/") {
		t.Errorf("a page that is gone is still redirected or remembered:\n%s\n%+v", redirects, gone.URLs)
	}
}

// Issue 15 (b): turning versioning on moves every page below the default
// version; the unversioned URLs redirect there.
func TestVersioningOnRedirectsToTheDefaultVersion(t *testing.T) {
	plain := []Repository{{Name: "gb", ContentPath: "gb"}}
	first, _, _ := assembleRemembering(t, plain, nil, renderedUnit(t, plain, "gb", map[string]string{
		"content/gb/_index.md": "# Home\n", "content/gb/guide/setup.md": "# Setup\n",
	}))
	versioned := []Repository{{Name: "gb", ContentPath: "gb", Versions: []Version{
		{Name: "main", Slug: "main", Default: true}, {Name: "v1", Slug: "v1", Tag: true}}}}
	res, dir, redirects := assembleRemembering(t, versioned, first.URLs,
		renderedUnit(t, versioned, "gb/main", map[string]string{"content/gb/main/_index.md": "# Home\n", "content/gb/main/guide/setup.md": "# Setup\n"}),
		renderedUnit(t, versioned, "gb/v1", map[string]string{"content/gb/v1/_index.md": "# Home\n", "content/gb/v1/guide/setup.md": "# Old setup\n"}))
	checkMoved(t, res, dir, redirects, "/docs/gb/guide/setup/", "/docs/gb/main/guide/setup/")
	if strings.Contains(redirects, "/v1/") || strings.Contains(redirects, "/docs/gb/ ") {
		t.Errorf("redirects to another version than the default, or over the repository's root page:\n%s", redirects)
	}
}

// Issue 15 (a): a second forge joining namespaces every repository by
// forge; the old URLs redirect to the repository of the first forge in
// configuration order, and the other forge's repository of the same name
// is a URL_CONFLICT.
func TestASecondForgeRedirectsToTheFirstOne(t *testing.T) {
	one := []Repository{{Name: "hugo", ContentPath: "hugo"}}
	first, _, _ := assembleRemembering(t, one, nil, renderedUnit(t, one, "hugo", map[string]string{
		"content/hugo/_index.md": "# Home\n", "content/hugo/about.md": "# About\n",
	}))
	two := []Repository{{Name: "hugo", Forge: "github", ContentPath: "github/hugo"}, {Name: "hugo", Forge: "gitlab", ContentPath: "gitlab/hugo"}}
	res, dir, redirects := assembleRemembering(t, two, first.URLs,
		renderedUnit(t, two, "github/hugo", map[string]string{"content/github/hugo/_index.md": "# Home\n", "content/github/hugo/about.md": "# About\n"}),
		renderedUnit(t, two, "gitlab/hugo", map[string]string{"content/gitlab/hugo/_index.md": "# Home\n", "content/gitlab/hugo/about.md": "# About\n"}))
	checkMoved(t, res, dir, redirects, "/docs/hugo/about/", "/docs/github/hugo/about/")
	checkMoved(t, res, dir, redirects, "/docs/hugo/", "/docs/github/hugo/")
	var lost []string
	for _, c := range res.Conflicts {
		if c.Winner.Kind != "moved" || c.Loser.Kind != "moved" || c.Winner.Forge != "github" || c.Loser.Forge != "gitlab" ||
			!strings.Contains(c.Message(), "hugo (github)") || !strings.Contains(c.Message(), "hugo (gitlab)") {
			t.Errorf("unexpected conflict %+v", c)
		}
		lost = append(lost, c.URL)
	}
	if strings.Join(lost, " ") != "/docs/hugo/ /docs/hugo/about/" {
		t.Errorf("conflicts on %v, want the two old URLs", lost)
	}
}

// A page renamed and then renamed back, assembled into one directory: the
// redirect page of the first rename never removes the page that is back
// at its URL, and the second rename redirects the other way.
func TestARenameBackKeepsThePage(t *testing.T) {
	repos := []Repository{{Name: "gb", ContentPath: "gb"}}
	body := "# Setup\n\nSet it up, step by step.\n"
	unit := func(id, name string) AssembledUnit {
		u := renderedUnit(t, repos, "gb", map[string]string{"content/gb/_index.md": "# Home\n", "content/gb/guide/" + name: body})
		u.ID = id
		return u
	}
	work, dir := t.TempDir(), filepath.Join(t.TempDir(), "site")
	var placed *PlacedSite
	var remembered []events.PublishedURL
	assemble := func(u AssembledUnit) string {
		t.Helper()
		res, err := Assemble(context.Background(), AssembleOptions{WorkDir: work, PublishDir: dir, Placed: placed, Remembered: remembered,
			Generator: fixtureGenerator(), Repositories: repos, Units: []AssembledUnit{u}, Logger: zerolog.Nop()})
		if err != nil {
			t.Fatal(err)
		}
		placed, remembered = res.Placed, res.URLs
		data, err := os.ReadFile(filepath.Join(dir, assembly.RedirectsFile))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	assemble(unit("a", "setup.md"))
	if m := assemble(unit("b", "install.md")); m != "/docs/gb/guide/setup/ /docs/gb/guide/install/ 301\n" {
		t.Fatalf("after the rename:\n%s", m)
	}
	if m := assemble(unit("c", "setup.md")); m != "/docs/gb/guide/install/ /docs/gb/guide/setup/ 301\n" {
		t.Errorf("after the rename back:\n%s", m)
	}
	page, err := os.ReadFile(filepath.Join(dir, "docs", "gb", "guide", "setup", "index.html"))
	if err != nil || !strings.Contains(string(page), "step by step") {
		t.Errorf("the page back at its URL is gone or a redirect: %v\n%s", err, page)
	}
	onDisk := filesOnDisk(t, dir)
	if fmt.Sprint(onDisk) != fmt.Sprint(placed.FileHashes()) {
		t.Errorf("the placed description differs from the directory:\n%v\n%v", placed.FileHashes(), onDisk)
	}
}
