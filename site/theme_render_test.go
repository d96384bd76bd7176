package site

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// Tests of the theme's page furniture on the fixture site: breadcrumbs,
// table of contents, previous/next links, edit links, taxonomies, callouts,
// the 404 page and the behaviour switched by theme parameters.

// The trail starts at the repository, named as the menu names it (not by
// its root page's title, which may be a slogan), not at the home page.
func TestRenderBreadcrumbsLeadFromTheRepositoryToThePage(t *testing.T) {
	opts, _, _ := renderFixture(t)
	html := readPublished(t, opts.PublishDir, "docs/alpha/guide/advanced/tuning/index.html")
	crumbs := between(html, `<nav class="breadcrumbs"`, "</nav>")
	if strings.Contains(crumbs, `href="/"`) {
		t.Errorf("breadcrumbs start at the home page:\n%s", crumbs)
	}
	want := []string{`<ol>
<li><a href="/docs/alpha/">alpha</a>`, `<a href="/docs/alpha/guide/">Guide</a>`,
		`<a href="/docs/alpha/guide/advanced/">Advanced</a>`, `<span aria-current="page">Tuning</span>`}
	last := -1
	for _, w := range want {
		at := strings.Index(crumbs, w)
		if at <= last {
			t.Fatalf("breadcrumbs lack %s in order:\n%s", w, crumbs)
		}
		last = at
	}
	if strings.Contains(crumbs, `href="/docs/"`) {
		t.Errorf("breadcrumbs include the /docs/ page:\n%s", crumbs)
	}
	for _, page := range []string{"index.html", "docs/alpha/index.html"} {
		if html := readPublished(t, opts.PublishDir, page); strings.Contains(html, "breadcrumbs") {
			t.Errorf("%s (the home page, a repository's root page) has breadcrumbs", page)
		}
	}
}

func TestRenderTableOfContentsListsSubheadings(t *testing.T) {
	opts, _, _ := renderFixture(t)
	html := readPublished(t, opts.PublishDir, "docs/alpha/guide/configure/index.html")
	toc := between(html, `<nav class="toc"`, "</nav>")
	for _, want := range []string{`<h2 id="dw-toc-title">On this page</h2>`, `<a href="#file-layout">File layout</a>`, `<a href="#widgets">Widgets</a>`, `<a href="#environment">Environment</a>`} {
		if !strings.Contains(toc, want) {
			t.Errorf("table of contents lacks %s:\n%s", want, toc)
		}
	}
	if !strings.Contains(html, `<h2 id="file-layout">`) {
		t.Error("the heading the table of contents links to has no id")
	}
	// A page with one subheading gets none.
	if tuning := readPublished(t, opts.PublishDir, "docs/alpha/guide/advanced/tuning/index.html"); strings.Contains(tuning, `class="toc"`) {
		t.Error("a page with a single subheading has a table of contents")
	}
}

func TestRenderPagerFollowsTheMenuOrderWithinARepository(t *testing.T) {
	opts, _, _ := renderFixture(t)
	// alpha in menu order: alpha/, intro, guide/, advanced/, tuning,
	// configure, install.
	cases := []struct{ page, prev, next string }{
		{"docs/alpha/index.html", "", "/docs/alpha/intro/"},
		{"docs/alpha/intro/index.html", "/docs/alpha/", "/docs/alpha/guide/"},
		{"docs/alpha/guide/advanced/tuning/index.html", "/docs/alpha/guide/advanced/", "/docs/alpha/guide/configure/"},
		{"docs/alpha/guide/install/index.html", "/docs/alpha/guide/configure/", ""},
	}
	for _, c := range cases {
		pager := between(readPublished(t, opts.PublishDir, c.page), `<nav class="pager"`, "</nav>")
		if c.prev != "" && !strings.Contains(pager, `class="pager-prev" href="`+c.prev+`"`) {
			t.Errorf("%s: previous is not %s:\n%s", c.page, c.prev, pager)
		}
		if c.next != "" && !strings.Contains(pager, `class="pager-next" href="`+c.next+`"`) {
			t.Errorf("%s: next is not %s:\n%s", c.page, c.next, pager)
		}
		if c.prev == "" && strings.Contains(pager, "pager-prev") || c.next == "" && strings.Contains(pager, "pager-next") {
			t.Errorf("%s: a link leaves the repository:\n%s", c.page, pager)
		}
	}
}

func TestRenderEditLinksPointAtTheRepositoryFile(t *testing.T) {
	opts, _, _ := renderFixture(t)
	// The fixture gives alpha an edit URL and beta none.
	for page, want := range map[string]string{
		"docs/alpha/guide/install/index.html":   "https://forge.example.org/docs/alpha/edit/main/docs/guide/install.md",
		"docs/alpha/guide/configure/index.html": "https://forge.example.org/docs/alpha/edit/main/docs/guide/configure.md", // a checked copy
		"docs/alpha/intro/index.html":           "https://forge.example.org/docs/alpha/edit/main/docs/intro.md",
	} {
		if html := readPublished(t, opts.PublishDir, page); !strings.Contains(html, `<a href="`+want+`">Edit this page</a>`) {
			t.Errorf("%s lacks the edit link %s", page, want)
		}
	}
	for _, page := range []string{"docs/alpha/index.html", "docs/alpha/guide/index.html", "docs/beta/usage/reference/index.html", "index.html"} {
		if strings.Contains(readPublished(t, opts.PublishDir, page), "Edit this page") {
			t.Errorf("%s has an edit link (generated page, or a repository without edit URL)", page)
		}
	}
}

func TestRenderTaxonomiesHaveListAndTermPages(t *testing.T) {
	opts, _, _ := renderFixture(t)
	for page, wants := range map[string][]string{
		"tags/index.html": {"<h1>Tags</h1>", `<a href="/tags/setup/">setup</a> <span class="count">3 pages</span>`},
		// A term of pages of two repositories, each rendered on its own.
		"tags/setup/index.html": {`<a href="/docs/alpha/guide/install/">Installing Alpha</a> <span class="where">alpha</span>`,
			`<a href="/docs/beta/usage/reference/">Beta reference</a> <span class="where">beta</span>`},
		"categories/guides/index.html": {`<a href="/docs/alpha/guide/configure/">Configuring Alpha</a>`},
		// A custom taxonomy from generator.taxonomies.
		"teams/platform/index.html": {`<a href="/docs/alpha/guide/install/">Installing Alpha</a>`},
	} {
		html := readPublished(t, opts.PublishDir, page)
		for _, want := range wants {
			if !strings.Contains(html, want) {
				t.Errorf("%s lacks %s", page, want)
			}
		}
	}
	install := readPublished(t, opts.PublishDir, "docs/alpha/guide/install/index.html")
	for _, want := range []string{`<ul class="terms" aria-label="Teams">`, `<a href="/teams/platform/" rel="tag">platform</a>`, `<a href="/tags/install/" rel="tag">install</a>`} {
		if !strings.Contains(install, want) {
			t.Errorf("install page lacks %s", want)
		}
	}
	configure := readPublished(t, opts.PublishDir, "docs/alpha/guide/configure/index.html")
	if !strings.Contains(configure, `<meta name="keywords" content="config, yaml">`) {
		t.Error("front matter keywords are not in the page's meta keywords")
	}
}

func TestRenderCalloutsRawHTMLAndUnknownShortcodes(t *testing.T) {
	opts, res, _ := renderFixture(t)
	body := between(readPublished(t, opts.PublishDir, "docs/alpha/guide/configure/index.html"), `<div class="body">`, "</article>")
	for _, want := range []string{
		"<div class=\"callout callout-warning\" role=\"note\">\n<p class=\"callout-title\">Warning</p>\n<p>Back up <strong>alpha.yaml</strong> before upgrading.</p>",
		// GitBook's {% hint style="info" %}.
		"<div class=\"callout callout-info\" role=\"note\">\n<p class=\"callout-title\">Note</p>\n<p>Variables override the file.</p>",
		"<details>\n\t<summary>All variables</summary>",
		// {{< tabpane >}} is unknown: its tags shown as written (code), with its text.
		"<p><code>{{&lt; tabpane &gt;}}</code>Older pages used tabs.<code>{{&lt; /tabpane &gt;}}</code></p>",
		`<span class="kd">func</span>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("configure page lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "{%") {
		t.Errorf("tags left in the page:\n%s", body)
	}
	// Shown as code, it is no raw syntax to its reader: reported once.
	if len(res.Issues) != 1 || res.Issues[0].Code != IssueUnknownShortcode || res.Issues[0].Path != "alpha/guide/configure.md" || !strings.Contains(res.Issues[0].Message, `"tabpane"`) {
		t.Errorf("issues = %v, want one UNKNOWN_SHORTCODE for tabs in alpha/guide/configure.md", res.Issues)
	}
}

func TestRenderReadmeIsItsDirectorysPage(t *testing.T) {
	opts, _, _ := renderFixture(t)
	api := readPublished(t, opts.PublishDir, "docs/beta/api/index.html")
	if !strings.Contains(api, "<h1>Beta API</h1>") || !strings.Contains(api, "The HTTP interface of Beta.") {
		t.Errorf("README.md is not the page of docs/beta/api/:\n%s", between(api, "<main", "</main>"))
	}
	if !strings.Contains(api, `<li><a href="/docs/beta/api/endpoints/">Endpoints</a></li>`) {
		t.Error("the README section does not list its pages")
	}
	// Links to the README from inside and outside its directory.
	for page, link := range map[string]string{
		"docs/beta/api/endpoints/index.html":         `<a href="/docs/beta/api/">API overview</a>`,
		"docs/beta/usage/getting-started/index.html": `<a href="/docs/beta/api/">API</a>`,
	} {
		if !strings.Contains(readPublished(t, opts.PublishDir, page), link) {
			t.Errorf("%s lacks %s", page, link)
		}
	}
}

func TestRenderNotFoundPageHasTheSiteAround(t *testing.T) {
	opts, _, _ := renderFixture(t)
	html := readPublished(t, opts.PublishDir, "404.html")
	for _, want := range []string{"<h1>Page not found</h1>", `<nav id="dw-menu"`, `<a class="site-title" href="/">`, `<link rel="stylesheet" href="/css/`} {
		if !strings.Contains(html, want) {
			t.Errorf("404 page lacks %s", want)
		}
	}
}

func TestRenderThemeParametersReachThePages(t *testing.T) {
	logs := &bytes.Buffer{}
	opts := fixtureOptions(t, newFixtureProject(t), logs)
	opts.Generator.Params = map[string]any{"collapsibleMenu": true, "showVisitedLinks": true, LiveReloadPortParam: 9099, "footerNote": "x"}
	if _, err := Render(context.Background(), opts); err != nil {
		t.Fatalf("Render: %v\n%s", err, logs)
	}
	html := readPublished(t, opts.PublishDir, "docs/beta/index.html")
	for _, want := range []string{`class="show-visited"`, `<body data-collapsible-menu="true">`, `data-port="9099"`, `src="/js/livereload.min.`} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if files := publishedTree(t, opts.PublishDir); !hasFileWithPrefix(files, "js/livereload.min.") {
		t.Error("the live-reload script is not published")
	}

	// Without the parameters: no trace of them.
	plain, _, _ := renderFixture(t)
	html = readPublished(t, plain.PublishDir, "docs/beta/index.html")
	for _, unwanted := range []string{"show-visited", "data-collapsible-menu", "livereload", "data-port"} {
		if strings.Contains(html, unwanted) {
			t.Errorf("page has %s although its parameter is not set", unwanted)
		}
	}
	if hasFileWithPrefix(publishedTree(t, plain.PublishDir), "js/livereload") {
		t.Error("the live-reload script is published without docweaveLiveReloadPort")
	}
}

func hasFileWithPrefix(tree map[string]string, prefix string) bool {
	for name := range tree {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}
