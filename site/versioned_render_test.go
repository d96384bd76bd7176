package site

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docweave/docweave/site/internal/hugobuild"
)

// Tests of a site with a versioned repository (testdata/versioned: gamma
// in versions main, v1.1.0 and v1.0.0) beside a non-versioned one (delta).

func TestVersionedRepositoryRootRedirectsToTheDefaultVersion(t *testing.T) {
	for _, c := range []struct {
		baseURL, target, canonical string
	}{
		{"", "/docs/gamma/main/", "/docs/gamma/main/"},
		{"/handbook/", "/handbook/docs/gamma/main/", "/handbook/docs/gamma/main/"},
		{"https://docs.example.org/handbook/", "/handbook/docs/gamma/main/", "https://docs.example.org/handbook/docs/gamma/main/"},
	} {
		t.Run("base "+c.baseURL, func(t *testing.T) {
			opts, _ := renderVersioned(t, c.baseURL)
			html := readPublished(t, opts.PublishDir, "docs/gamma/index.html")
			for _, want := range []string{
				`<meta http-equiv="refresh" content="0; url=` + c.target + `">`,
				`<link rel="canonical" href="` + c.canonical + `">`,
				`<a href="` + c.target + `">gamma main</a>`,
				`<html lang="en">`,
				`<title>gamma · Fixture Docs</title>`,
			} {
				if !strings.Contains(html, want) {
					t.Errorf("redirect page lacks %s:\n%s", want, html)
				}
			}
			if strings.Contains(html, `id="dw-menu"`) {
				t.Error("the redirect page has the full page around it; it should be a bare redirect")
			}
			// The switcher's links stay below the base path too.
			switcher := between(readPublished(t, opts.PublishDir, "docs/gamma/v1.1.0/guide/install/index.html"), `<nav class="versions"`, "</nav>")
			base := strings.TrimSuffix(c.target, "docs/gamma/main/")
			for _, want := range []string{`<a href="` + base + `docs/gamma/main/guide/install/">main</a>`, `href="` + base + `docs/gamma/v1.0.0/" title="Page not in v1.0.0`} {
				if !strings.Contains(switcher, want) {
					t.Errorf("switcher lacks %s:\n%s", want, switcher)
				}
			}
		})
	}
}

func TestVersionedHomeAndMenuListTheRepositoryOnce(t *testing.T) {
	opts, _ := renderVersioned(t, "")
	home := between(readPublished(t, opts.PublishDir, "index.html"), "<main", "</main>")
	gamma := between(home, `<h3><a href="/docs/gamma/main/">gamma</a></h3>`, "</li>")
	for _, want := range []string{`3 pages`, `3 versions:</span> <a href="/docs/gamma/main/">main</a>, <a href="/docs/gamma/v1.1.0/">v1.1.0</a>, <a href="/docs/gamma/v1.0.0/">v1.0.0</a>`} {
		if !strings.Contains(gamma, want) {
			t.Errorf("gamma's card lacks %s:\n%s", want, home)
		}
	}
	if want := `<h3><a href="/docs/delta/">delta</a></h3>`; !strings.Contains(home, want) || !strings.Contains(between(home, want, "</li>"), "1 page</span>") {
		t.Errorf("home page lacks the non-versioned repository's card with 1 page (%s):\n%s", want, home)
	}
	if n := strings.Count(home, ">gamma</a>"); n != 1 {
		t.Errorf("home page lists gamma %d times, want once", n)
	}

	// From a page outside gamma the menu leads to its default version.
	menu := between(readPublished(t, opts.PublishDir, "docs/delta/usage/index.html"), `<nav id="dw-menu"`, "</nav>")
	if !strings.Contains(menu, `<li class="menu-repository"><a href="/docs/gamma/main/">gamma</a></li>`) {
		t.Errorf("menu of a delta page does not lead to gamma's default version unexpanded:\n%s", menu)
	}
}

func TestVersionedMenuShowsTheCurrentVersionsTreeOnly(t *testing.T) {
	opts, _ := renderVersioned(t, "")
	for page, c := range map[string]struct {
		version string
		has     []string
	}{
		"docs/gamma/v1.1.0/guide/install/index.html": {"v1.1.0", []string{
			`<a href="/docs/gamma/v1.1.0/">gamma</a> <span class="menu-version"><span class="visually-hidden">version </span>v1.1.0</span>`,
			`<a href="/docs/gamma/v1.1.0/intro/">Welcome to Gamma</a>`,
			`<a href="/docs/gamma/v1.1.0/guide/install/" aria-current="page">Installing Gamma</a>`,
		}},
		"docs/gamma/main/guide/upgrade/index.html": {"main", []string{
			`<a href="/docs/gamma/main/guide/install/">Installing Gamma</a>`,
			`<a href="/docs/gamma/main/guide/upgrade/" aria-current="page">Upgrading to Gamma 2</a>`,
		}},
		"docs/gamma/v1.0.0/index.html": {"v1.0.0", []string{
			`<a href="/docs/gamma/v1.0.0/" aria-current="page">gamma</a>`,
			`<a href="/docs/gamma/v1.0.0/guide/">`, // closed: off the page's way
		}},
	} {
		menu := between(readPublished(t, opts.PublishDir, page), `<nav id="dw-menu"`, "</nav>")
		for _, want := range c.has {
			if !strings.Contains(menu, want) {
				t.Errorf("%s: menu lacks %s:\n%s", page, want, menu)
			}
		}
		for _, other := range []string{"main", "v1.1.0", "v1.0.0"} {
			if other != c.version && strings.Contains(menu, "/docs/gamma/"+other+"/") {
				t.Errorf("%s: menu of version %s links into version %s:\n%s", page, c.version, other, menu)
			}
		}
		if n := strings.Count(menu, `class="menu-repository"`); n != 2 {
			t.Errorf("%s: %d repositories in the menu, want 2 (gamma once, delta)", page, n)
		}
	}
}

func TestVersionSwitcherLinksToTheSamePageOrFallsBackToTheIndex(t *testing.T) {
	opts, _ := renderVersioned(t, "")
	fallback := func(v string) string {
		return `<a class="version-fallback" href="/docs/gamma/` + v + `/" title="Page not in ` + v + `: opens its index">` + v +
			` <span class="version-fallback-mark" aria-hidden="true">index</span><span class="visually-hidden"> (this page is not in ` + v + `; opens its index)</span></a>`
	}
	cases := map[string][]string{
		// install.md is in main and v1.1.0, not in v1.0.0.
		"docs/gamma/v1.1.0/guide/install/index.html": {
			`<nav class="versions" aria-label="Versions of gamma" data-repository="gamma" data-version="v1.1.0">`,
			`<summary><span class="versions-label">Version</span> <span class="versions-current">v1.1.0</span></summary>`,
			`<li><a href="/docs/gamma/main/guide/install/">main</a> <span class="version-default">default</span></li>`,
			`<li><a href="/docs/gamma/v1.1.0/guide/install/" aria-current="page">v1.1.0</a></li>`,
			`<li>` + fallback("v1.0.0") + `</li>`,
		},
		"docs/gamma/main/guide/install/index.html": {
			`<summary><span class="versions-label">Version</span> <span class="versions-current">main</span> <span class="version-default">default</span></summary>`,
			`<li><a href="/docs/gamma/main/guide/install/" aria-current="page">main</a> <span class="version-default">default</span></li>`,
			`<li><a href="/docs/gamma/v1.1.0/guide/install/">v1.1.0</a></li>`,
			`<li>` + fallback("v1.0.0") + `</li>`,
		},
		// Only in main.
		"docs/gamma/main/guide/upgrade/index.html": {`<li>` + fallback("v1.1.0") + `</li>`, `<li>` + fallback("v1.0.0") + `</li>`},
		// A directory page in every version.
		"docs/gamma/v1.0.0/guide/index.html": {
			`<li><a href="/docs/gamma/main/guide/">main</a> <span class="version-default">default</span></li>`,
			`<li><a href="/docs/gamma/v1.1.0/guide/">v1.1.0</a></li>`,
		},
		// A version's root page: its README in v1.0.0, generated elsewhere.
		"docs/gamma/v1.0.0/index.html": {
			`<li><a href="/docs/gamma/main/">main</a> <span class="version-default">default</span></li>`,
			`<li><a href="/docs/gamma/v1.1.0/">v1.1.0</a></li>`,
		},
		"docs/gamma/main/index.html": {`<li><a href="/docs/gamma/v1.0.0/">v1.0.0</a></li>`, `<li><a href="/docs/gamma/main/" aria-current="page">main</a>`},
	}
	for page, wants := range cases {
		switcher := between(readPublished(t, opts.PublishDir, page), `<nav class="versions"`, "</nav>")
		for _, want := range wants {
			if !strings.Contains(switcher, want) {
				t.Errorf("%s: switcher lacks %s:\n%s", page, want, switcher)
			}
		}
		if n := strings.Count(switcher, "<li>"); n != 3 {
			t.Errorf("%s: switcher has %d entries, want 3 (every version)", page, n)
		}
		if n := strings.Count(switcher, `aria-current="page"`); n != 1 {
			t.Errorf("%s: switcher marks %d entries as the current page, want 1", page, n)
		}
	}
	// Pages outside versioned repositories have no switcher.
	for _, page := range []string{"index.html", "docs/delta/usage/index.html", "docs/delta/index.html", "tags/setup/index.html", "404.html"} {
		if strings.Contains(readPublished(t, opts.PublishDir, page), `class="versions"`) {
			t.Errorf("%s has a version switcher", page)
		}
	}
}

func TestVersionedBreadcrumbsNameTheVersion(t *testing.T) {
	opts, _ := renderVersioned(t, "")
	for page, want := range map[string]string{
		"docs/gamma/v1.1.0/guide/install/index.html": "<ol>\n<li><a href=\"/docs/gamma/\">gamma</a></li>\n<li><a href=\"/docs/gamma/v1.1.0/\">v1.1.0</a></li>\n<li><a href=\"/docs/gamma/v1.1.0/guide/\">Guide</a></li>\n<li><span aria-current=\"page\">Installing Gamma</span></li>",
		// The version root's own title is "Gamma 1.0 handbook"; the crumb names the version.
		"docs/gamma/v1.0.0/index.html":       "<li><a href=\"/docs/gamma/\">gamma</a></li>\n<li><span aria-current=\"page\">v1.0.0</span></li>",
		"docs/gamma/v1.0.0/intro/index.html": "<li><a href=\"/docs/gamma/v1.0.0/\">v1.0.0</a></li>\n<li><span aria-current=\"page\">Welcome to Gamma</span></li>",
		// Delta's root page is titled "Delta Handbook"; the trail names the repository.
		"docs/delta/usage/index.html": "<ol>\n<li><a href=\"/docs/delta/\">delta</a></li>\n<li><span aria-current=\"page\">Using Delta</span></li>",
	} {
		crumbs := between(readPublished(t, opts.PublishDir, page), `<nav class="breadcrumbs"`, "</nav>")
		if !strings.Contains(crumbs, want) {
			t.Errorf("%s: breadcrumbs lack\n%s\ngot:\n%s", page, want, crumbs)
		}
	}
}

func TestVersionedEditLinksUseTheVersionsEditURL(t *testing.T) {
	opts, _ := renderVersioned(t, "")
	for page, want := range map[string]string{
		"docs/gamma/main/guide/install/index.html":   "https://forge.example.org/o/gamma/edit/main/docs/guide/install.md",
		"docs/gamma/v1.1.0/guide/install/index.html": "https://forge.example.org/o/gamma/edit/v1.1.0/docs/guide/install.md", // a checked copy (unknown shortcode)
		"docs/gamma/v1.1.0/intro/index.html":         "https://forge.example.org/o/gamma/edit/v1.1.0/docs/intro.md",
		"docs/delta/usage/index.html":                "https://forge.example.org/o/delta/edit/main/docs/usage.md",
	} {
		if html := readPublished(t, opts.PublishDir, page); !strings.Contains(html, `<p class="edit-link"><a href="`+want+`">Edit this page</a></p>`) {
			t.Errorf("%s lacks the edit link %s", page, want)
		}
	}
	// v1.0.0 has no edit URL; generated version roots have no file.
	for _, page := range []string{"docs/gamma/v1.0.0/intro/index.html", "docs/gamma/v1.0.0/index.html", "docs/gamma/main/index.html"} {
		if strings.Contains(readPublished(t, opts.PublishDir, page), "Edit this page") {
			t.Errorf("%s has an edit link", page)
		}
	}
}

func TestVersionedPagerStaysInsideTheVersion(t *testing.T) {
	opts, _ := renderVersioned(t, "")
	// v1.1.0 in menu order: root, intro, guide/, install.
	pager := between(readPublished(t, opts.PublishDir, "docs/gamma/v1.1.0/intro/index.html"), `<nav class="pager"`, "</nav>")
	if !strings.Contains(pager, `class="pager-prev" href="/docs/gamma/v1.1.0/"`) || !strings.Contains(pager, `class="pager-next" href="/docs/gamma/v1.1.0/guide/"`) {
		t.Errorf("pager of v1.1.0/intro does not stay in v1.1.0:\n%s", pager)
	}
	pager = between(readPublished(t, opts.PublishDir, "docs/gamma/v1.1.0/guide/install/index.html"), `<nav class="pager"`, "</nav>")
	if strings.Contains(pager, "pager-next") {
		t.Errorf("the last page of v1.1.0 links on to another version:\n%s", pager)
	}
}

// rawSearchEntry is one entry of /search/index.json, with its keys as sent.
type rawSearchEntry map[string]any

func TestVersionedSearchEntriesCarryTheirVersion(t *testing.T) {
	opts, _ := renderVersioned(t, "")
	var entries []rawSearchEntry
	if err := json.Unmarshal([]byte(searchEntriesJSON(t, opts.PublishDir)), &entries); err != nil {
		t.Fatalf("search index: %v", err)
	}
	byURL := map[string]rawSearchEntry{}
	for _, e := range entries {
		byURL[e["url"].(string)] = e
	}
	for url, want := range map[string][2]any{
		"/docs/gamma/main/guide/install/":   {"main", true},
		"/docs/gamma/v1.1.0/guide/install/": {"v1.1.0", false},
		"/docs/gamma/v1.0.0/":               {"v1.0.0", false}, // its README
		"/docs/gamma/v1.0.0/guide/setup/":   {"v1.0.0", false},
	} {
		e, ok := byURL[url]
		if !ok {
			t.Errorf("search index lacks %s", url)
			continue
		}
		if e["version"] != want[0] || e["versionIsDefault"] != want[1] || e["repository"] != "gamma" {
			t.Errorf("%s: repository %v, version %v, versionIsDefault %v; want gamma, %v, %v", url, e["repository"], e["version"], e["versionIsDefault"], want[0], want[1])
		}
	}
	if e := byURL["/docs/gamma/v1.1.0/guide/install/"]; e["section"] != "Guide" {
		t.Errorf("section of a versioned page = %v, want Guide", e["section"])
	}
	if e := byURL["/docs/gamma/main/intro/"]; e["section"] != "" {
		t.Errorf("section of a page at a version's root = %v, want \"\"", e["section"])
	}
	e := byURL["/docs/delta/usage/"]
	if e == nil {
		t.Fatal("search index lacks /docs/delta/usage/")
	}
	if _, has := e["version"]; has {
		t.Errorf("an entry of a non-versioned repository has a version: %v", e)
	}
	if _, has := byURL["/docs/gamma/"]; has {
		t.Error("the redirect page is in the search index")
	}
}

func TestVersionedTermPagesNameTheVersion(t *testing.T) {
	opts, _ := renderVersioned(t, "")
	html := readPublished(t, opts.PublishDir, "tags/setup/index.html")
	for _, want := range []string{
		`<a href="/docs/gamma/main/guide/install/">Installing Gamma</a> <span class="where">gamma main</span>`,
		`<a href="/docs/gamma/v1.1.0/guide/install/">Installing Gamma</a> <span class="where">gamma v1.1.0</span>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("term page lacks %s", want)
		}
	}
}

func TestVersionedConfigurationCarriesVersionMetadata(t *testing.T) {
	g := fixtureGenerator()
	g.BaseURL = "https://docs.example.org/handbook/"
	// The assembly's configuration, as Hugo is given it: every version
	// with its commit.
	l := hugobuild.NewLayout(filepath.Join(t.TempDir(), "project"), filepath.Join(t.TempDir(), "public"))
	data, err := json.Marshal(hugobuild.Config(g, versionedRepos(), l, hugobuild.Plan{}, hugobuild.Role{}))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Params struct {
			Docweave struct {
				Repositories []map[string]json.RawMessage `json:"repositories"`
			} `json:"docweave"`
		} `json:"params"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatalf("hugo.json: %v", err)
	}
	repos := cfg.Params.Docweave.Repositories
	if len(repos) != 2 {
		t.Fatalf("%d repositories in params.docweave.repositories, want 2", len(repos))
	}
	if got := string(repos[0]["defaultVersion"]); got != `"main"` {
		t.Errorf("gamma defaultVersion = %s, want \"main\"", got)
	}
	if got := string(repos[0]["landing"]); got != `"/handbook/docs/gamma/main/"` {
		t.Errorf("gamma landing = %s", got)
	}
	if got := string(repos[0]["landingPermalink"]); got != `"https://docs.example.org/handbook/docs/gamma/main/"` {
		t.Errorf("gamma landingPermalink = %s", got)
	}
	type version struct {
		Name, Slug, Commit, URL string
		Default, Tag            bool
		EditURL                 string `json:"editURL"`
	}
	var versions []version
	if err := json.Unmarshal(repos[0]["versions"], &versions); err != nil {
		t.Fatalf("gamma versions: %v", err)
	}
	want := []version{
		{"main", "main", gammaMainCommit, "/handbook/docs/gamma/main/", true, false, "https://forge.example.org/o/gamma/edit/main/docs/{path}"},
		{"v1.1.0", "v1.1.0", gammaV110Commit, "/handbook/docs/gamma/v1.1.0/", false, true, "https://forge.example.org/o/gamma/edit/v1.1.0/docs/{path}"},
		{"v1.0.0", "v1.0.0", gammaV100Commit, "/handbook/docs/gamma/v1.0.0/", false, true, ""},
	}
	if len(versions) != len(want) {
		t.Fatalf("gamma has %d versions in the configuration, want %d", len(versions), len(want))
	}
	for i := range want {
		if versions[i] != want[i] {
			t.Errorf("version %d = %+v, want %+v", i, versions[i], want[i])
		}
	}
	for _, key := range []string{"versions", "defaultVersion"} {
		if _, has := repos[1][key]; has {
			t.Errorf("the non-versioned repository has %s in the configuration", key)
		}
	}
}

func TestVersionedPageIssuesKeepContentPaths(t *testing.T) {
	_, res := renderVersioned(t, "")
	if len(res.Issues) != 1 || res.Issues[0].Path != "gamma/v1.1.0/guide/install.md" || res.Issues[0].Code != IssueUnknownShortcode {
		t.Errorf("issues = %v, want one UNKNOWN_SHORTCODE for gamma/v1.1.0/guide/install.md", res.Issues)
	}
	// Markdown files of the fixture; generated pages are not counted.
	if res.Pages != 10 {
		t.Errorf("Result.Pages = %d, want the fixture's 10 Markdown files", res.Pages)
	}
}

// versionedGoldenPages are the versioned fixture's pages compared with
// testdata/golden.
var versionedGoldenPages = map[string]string{
	"index.html":            "versioned-home.html",
	"docs/gamma/index.html": "versioned-redirect.html",
	"docs/gamma/v1.1.0/guide/install/index.html": "versioned-page.html",
	"docs/gamma/v1.0.0/index.html":               "versioned-readme-root.html",
	"docs/delta/usage/index.html":                "versioned-neighbour.html",
}

func TestVersionedRenderMatchesGoldenPages(t *testing.T) {
	opts, _ := renderVersioned(t, "")
	for page, name := range versionedGoldenPages {
		got := readPublished(t, opts.PublishDir, page)
		golden := filepath.Join("testdata", "golden", name)
		if *update {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run `go test ./site -update` to create it)", err)
		}
		if got != string(want) {
			t.Errorf("%s differs from %s (run `go test ./site -update` after an intended change)\n--- got ---\n%s", page, golden, got)
		}
	}
}
