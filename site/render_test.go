package site

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rs/zerolog"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

func TestRenderWritesPagesWithTitleAndBody(t *testing.T) {
	opts, _, _ := renderFixture(t)

	cases := []struct {
		page, title, body string
	}{
		// Front matter title; the repeated "# Installing Alpha" is dropped.
		{"docs/alpha/guide/install/index.html", "Installing Alpha", "Run the installer"},
		// No front matter: the title is the first "#" heading.
		{"docs/alpha/intro/index.html", "Welcome to Alpha", "turns <strong>widgets</strong> into gadgets"},
		// No front matter and no "#" heading (only one inside a code
		// block): the title is the file name.
		{"docs/alpha/guide/advanced/tuning/index.html", "Tuning", "Tuning Alpha is rarely needed."},
		{"docs/beta/usage/getting-started/index.html", "Getting Started with Beta", "Beta needs no setup."},
		// index.md is the page of its directory, not a leaf bundle.
		{"docs/beta/index.html", "Beta Handbook", "Everything about Beta."},
	}
	for _, c := range cases {
		html := readPublished(t, opts.PublishDir, c.page)
		if !strings.Contains(html, "<h1>"+c.title+"</h1>") {
			t.Errorf("%s: no <h1>%s</h1>", c.page, c.title)
		}
		if !strings.Contains(html, "<title>"+c.title+" · Fixture Docs</title>") {
			t.Errorf("%s: <title> is not %q", c.page, c.title+" · Fixture Docs")
		}
		if !strings.Contains(between(html, "<main", "</main>"), c.body) {
			t.Errorf("%s: body text %q not inside <main>", c.page, c.body)
		}
		if n := strings.Count(html, "<h1"); n != 1 {
			t.Errorf("%s: %d <h1> elements, want exactly 1 (title not repeated)", c.page, n)
		}
		for _, tag := range []string{"<header", "<nav", "<main"} {
			if !strings.Contains(html, tag) {
				t.Errorf("%s: no %s> element", c.page, tag)
			}
		}
	}
}

func TestRenderResultCountsMarkdownPagesAndFiles(t *testing.T) {
	opts, res, _ := renderFixture(t)

	markdown := 0
	err := filepath.WalkDir("testdata/project/content", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			markdown++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if markdown == 0 || res.Pages != markdown {
		t.Errorf("Result.Pages = %d, want %d (the fixture's Markdown files)", res.Pages, markdown)
	}
	if want := len(publishedTree(t, opts.PublishDir)); res.Files != want {
		t.Errorf("Result.Files = %d, want %d files in the publish dir", res.Files, want)
	}
}

func TestRenderHomeListsBothRepositories(t *testing.T) {
	opts, _, _ := renderFixture(t)
	home := readPublished(t, opts.PublishDir, "index.html")
	main := between(home, "<main", "</main>")
	for _, link := range []string{`<a href="/docs/alpha/">alpha</a>`, `<a href="/docs/beta/">beta</a>`} {
		if !strings.Contains(main, link) {
			t.Errorf("home page lacks %s", link)
		}
	}
	if !strings.Contains(main, "<h1>Fixture Docs</h1>") || !strings.Contains(main, "Two repositories, rendered for tests.") {
		t.Errorf("home page lacks the site title or description:\n%s", main)
	}
}

func TestRenderMenuIsBuiltFromThePageTree(t *testing.T) {
	opts, _, _ := renderFixture(t)

	// On a page of the second repository, the menu expands that repository
	// into its directories and pages and marks the current page.
	html := readPublished(t, opts.PublishDir, "docs/beta/usage/getting-started/index.html")
	menu := between(html, "<nav", "</nav>")
	for _, want := range []string{
		`<a href="/docs/beta/usage/reference/">Beta reference</a>`,
		`<a href="/docs/beta/usage/">Usage</a>`,
		`<a href="/docs/beta/usage/getting-started/" aria-current="page">Getting Started with Beta</a>`,
		`<a href="/docs/alpha/">alpha</a>`,
	} {
		if !strings.Contains(menu, want) {
			t.Errorf("menu lacks %s:\n%s", want, menu)
		}
	}
	if strings.Contains(menu, "/docs/alpha/intro/") {
		t.Errorf("menu expands the other repository too:\n%s", menu)
	}

	// On a page of the first repository, the menu opens the way to the
	// page's section only: a directory beside it is a link to its section
	// page, without its descendants, so pages do not carry the whole tree.
	html = readPublished(t, opts.PublishDir, "docs/alpha/guide/install/index.html")
	menu = between(html, "<nav", "</nav>")
	for _, want := range []string{
		`<a href="/docs/alpha/guide/advanced/">`,
		`<a href="/docs/alpha/guide/install/" aria-current="page">`,
		`<a href="/docs/beta/">beta</a>`,
	} {
		if !strings.Contains(menu, want) {
			t.Errorf("menu lacks %s:\n%s", want, menu)
		}
	}
	if strings.Contains(menu, "/docs/alpha/guide/advanced/tuning/") {
		t.Errorf("menu opens a directory off the page's way:\n%s", menu)
	}
	if n := strings.Count(menu, `aria-current="page"`); n != 1 {
		t.Errorf("menu marks %d links as current, want 1", n)
	}

	// On a page inside that directory, it opens.
	html = readPublished(t, opts.PublishDir, "docs/alpha/guide/advanced/tuning/index.html")
	menu = between(html, "<nav", "</nav>")
	for _, want := range []string{
		`<a href="/docs/alpha/guide/advanced/tuning/" aria-current="page">Tuning</a>`,
		`<a href="/docs/alpha/guide/install/">`,
	} {
		if !strings.Contains(menu, want) {
			t.Errorf("menu lacks %s:\n%s", want, menu)
		}
	}
}

// publishedEntry is one entry of the search index.
type publishedEntry struct {
	Title      string   `json:"title"`
	URL        string   `json:"url"`
	Repository string   `json:"repository"`
	Section    string   `json:"section"`
	Tags       []string `json:"tags"`
	Text       string   `json:"text"`
}

func readSearchIndex(t *testing.T, publishDir string) map[string]publishedEntry {
	t.Helper()
	var entries []publishedEntry
	if err := json.Unmarshal([]byte(searchEntriesJSON(t, publishDir)), &entries); err != nil {
		t.Fatalf("search/index.json does not parse: %v", err)
	}
	byURL := map[string]publishedEntry{}
	for _, e := range entries {
		byURL[e.URL] = e
	}
	return byURL
}

func TestRenderSearchIndex(t *testing.T) {
	opts, _, _ := renderFixture(t)
	index := readSearchIndex(t, opts.PublishDir)

	if len(index) != 9 {
		t.Errorf("search index has %d entries, want 9 (7 pages, beta's index.md and beta/api's README.md): %v", len(index), index)
	}
	install := index["/docs/alpha/guide/install/"]
	if install.Title != "Installing Alpha" || install.Repository != "alpha" || install.Section != "Guide" {
		t.Errorf("install entry = %+v", install)
	}
	if strings.Join(install.Tags, ",") != "install,setup" {
		t.Errorf("install tags = %v, want [install setup]", install.Tags)
	}
	if !strings.HasPrefix(install.Text, "Run the installer") || !strings.Contains(install.Text, "Then continue with tuning.") {
		t.Errorf("install text = %q, want the page text without its title", install.Text)
	}
	ref := index["/docs/beta/usage/reference/"]
	if ref.Repository != "beta" || ref.Section != "Usage" || strings.Join(ref.Tags, ",") != "reference,setup" {
		t.Errorf("reference entry = %+v", ref)
	}
	intro := index["/docs/alpha/intro/"]
	if intro.Title != "Welcome to Alpha" || intro.Section != "" || intro.Tags == nil {
		t.Errorf("intro entry = %+v (want title from heading, no section, tags [] not null)", intro)
	}
	if !strings.HasSuffix(intro.Text, "Widgets & gadgets: a < b is “true”.") {
		t.Errorf("intro text = %q, want plain text with entities decoded", intro.Text)
	}
	// A title taken from the file name is not cut from the text.
	if tuning := index["/docs/alpha/guide/advanced/tuning/"]; !strings.HasPrefix(tuning.Text, "Tuning Alpha is rarely needed.") {
		t.Errorf("tuning text = %q", tuning.Text)
	}
	if api := index["/docs/beta/api/"]; api.Title != "Beta API" || !strings.Contains(api.Text, "The HTTP interface of Beta.") {
		t.Errorf("README section entry = %+v", api)
	}
}

func TestRenderSearchIndexCutsLongTexts(t *testing.T) {
	project := filepath.Join(t.TempDir(), "project")
	writeFiles(t, project, map[string]string{"content/r/long.md": "# Long\n\n" + strings.Repeat("word ", 2000)})
	opts := fixtureOptions(t, project, &bytes.Buffer{})
	opts.Repositories = []Repository{{Name: "r", ContentPath: "r"}}
	if _, err := Render(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	text := readSearchIndex(t, opts.PublishDir)["/docs/r/long/"].Text
	if n := len([]rune(text)); n < 2900 || n > 3000 {
		t.Errorf("text of a 10,000-character page has %d characters, want it cut at about 3000", n)
	}
}

func TestRenderResolvesRepositoryRelativeLinksAndImages(t *testing.T) {
	opts, _, _ := renderFixture(t)
	install := readPublished(t, opts.PublishDir, "docs/alpha/guide/install/index.html")
	if !strings.Contains(install, `<img src="/docs/alpha/guide/img/diagram.png" alt="Install diagram">`) {
		t.Errorf("image not resolved against the source directory:\n%s", between(install, "<main", "</main>"))
	}
	if !strings.Contains(install, `<a href="/docs/alpha/guide/advanced/tuning/#cache-size">tuning</a>`) {
		t.Errorf("link to a Markdown file not mapped to its page")
	}
	started := readPublished(t, opts.PublishDir, "docs/beta/usage/getting-started/index.html")
	if !strings.Contains(started, `<a href="/docs/beta/">handbook</a>`) {
		t.Errorf("link to ../index.md not mapped to the directory page")
	}
	// The image is published at its source path.
	want, err := os.ReadFile("testdata/project/content/alpha/guide/img/diagram.png")
	if err != nil {
		t.Fatal(err)
	}
	if got := readPublished(t, opts.PublishDir, "docs/alpha/guide/img/diagram.png"); got != string(want) {
		t.Errorf("published image differs from the source")
	}
	// Markdown sources are not published as files.
	if _, err := os.Stat(filepath.Join(opts.PublishDir, "docs/alpha/intro.md")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Markdown source published: %v", err)
	}
}

// goldenPages are the published files compared with testdata/golden: one
// of each kind of page the theme renders.
var goldenPages = map[string]string{
	"index.html": "home.html",
	"docs/alpha/guide/advanced/tuning/index.html": "tuning.html",
	"docs/alpha/guide/configure/index.html":       "configure.html",
	"docs/beta/api/index.html":                    "readme-section.html",
	"tags/index.html":                             "taxonomy.html",
	"tags/setup/index.html":                       "term.html",
	"404.html":                                    "404.html",
}

func TestRenderMatchesGoldenPages(t *testing.T) {
	opts, _, _ := renderFixture(t)
	for page, name := range goldenPages {
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

func TestRenderIsDeterministic(t *testing.T) {
	project := newFixtureProject(t)
	var first map[string]string
	for i := range 3 {
		logs := &bytes.Buffer{}
		opts := fixtureOptions(t, project, logs)
		if _, err := Render(context.Background(), opts); err != nil {
			t.Fatalf("render %d: %v\n%s", i+1, err, logs)
		}
		tree := publishedTree(t, opts.PublishDir)
		if i == 0 {
			first = tree
			continue
		}
		if len(tree) != len(first) {
			t.Fatalf("render %d wrote %d files, render 1 wrote %d", i+1, len(tree), len(first))
		}
		for name, content := range first {
			if tree[name] != content {
				t.Errorf("render %d: %s differs from render 1", i+1, name)
			}
		}
	}
}

func TestRenderUnderBaseURLSubPath(t *testing.T) {
	logs := &bytes.Buffer{}
	opts := fixtureOptions(t, newFixtureProject(t), logs)
	opts.Generator.BaseURL = "https://docs.example.org/handbook/"
	if _, err := Render(context.Background(), opts); err != nil {
		t.Fatalf("Render: %v\n%s", err, logs)
	}

	home := readPublished(t, opts.PublishDir, "index.html")
	for _, want := range []string{
		`<a href="/handbook/docs/alpha/">alpha</a>`,
		`<a class="site-title" href="/handbook/">`,
		`<link rel="stylesheet" href="/handbook/css/`,
		`content="/handbook/search/index.json"`,
	} {
		if !strings.Contains(home, want) {
			t.Errorf("home page lacks %s", want)
		}
	}
	install := readPublished(t, opts.PublishDir, "docs/alpha/guide/install/index.html")
	for _, want := range []string{
		`src="/handbook/docs/alpha/guide/img/diagram.png"`,
		`href="/handbook/docs/alpha/guide/advanced/tuning/#cache-size"`,
		`<a href="/handbook/docs/alpha/guide/install/" aria-current="page">`,
	} {
		if !strings.Contains(install, want) {
			t.Errorf("install page lacks %s", want)
		}
	}
	if strings.Contains(install, `href="/docs/`) || strings.Contains(install, `src="/docs/`) {
		t.Errorf("install page has a link that ignores the base path")
	}
	for url := range readSearchIndex(t, opts.PublishDir) {
		if !strings.HasPrefix(url, "/handbook/docs/") {
			t.Errorf("search index URL %q lacks the base path", url)
		}
	}
}

func TestRenderHonoursCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	opts := fixtureOptions(t, newFixtureProject(t), &bytes.Buffer{})
	_, err := Render(ctx, opts)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Render with a cancelled context: err = %v, want context.Canceled", err)
	}
	if _, err := os.Stat(opts.PublishDir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a cancelled render wrote to the publish dir: %v", err)
	}
}

func TestRenderDisableSearchDropsTheIndex(t *testing.T) {
	logs := &bytes.Buffer{}
	opts := fixtureOptions(t, newFixtureProject(t), logs)
	opts.Generator.Params = map[string]any{"disableSearch": true, "themeVariant": "dark"}
	if _, err := Render(context.Background(), opts); err != nil {
		t.Fatalf("Render: %v\n%s", err, logs)
	}
	if _, err := os.Stat(filepath.Join(opts.PublishDir, "search", "index.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("search/index.json written although disableSearch is true: %v", err)
	}
	home := readPublished(t, opts.PublishDir, "index.html")
	if !strings.Contains(home, `data-theme="dark"`) || strings.Contains(home, "docweave-search-index") {
		t.Errorf("home page ignores themeVariant or disableSearch:\n%s", between(home, "<html", "</head>"))
	}
}

func TestRenderWithoutRepositoryListFallsBackToTheContentTree(t *testing.T) {
	logs := &bytes.Buffer{}
	opts := fixtureOptions(t, newFixtureProject(t), logs)
	opts.Repositories = nil
	if _, err := Render(context.Background(), opts); err != nil {
		t.Fatalf("Render: %v\n%s", err, logs)
	}
	home := between(readPublished(t, opts.PublishDir, "index.html"), "<main", "</main>")
	if !strings.Contains(home, `href="/docs/alpha/"`) || !strings.Contains(home, `href="/docs/beta/"`) {
		t.Errorf("home page does not list the content directories:\n%s", home)
	}
}

func TestRenderNamespacedForges(t *testing.T) {
	project := filepath.Join(t.TempDir(), "project")
	writeFiles(t, project, map[string]string{
		"content/github/tools/usage.md":  "# Tool usage\n\nRun the tool.\n",
		"content/gitlab/infra/design.md": "# Infra design\n\nThree tiers.\n",
	})
	logs := &bytes.Buffer{}
	opts := fixtureOptions(t, project, logs)
	opts.Repositories = []Repository{
		{Name: "tools", Forge: "github", ContentPath: "github/tools"},
		{Name: "infra", Forge: "gitlab", ContentPath: "gitlab/infra"},
	}
	res, err := Render(context.Background(), opts)
	if err != nil {
		t.Fatalf("Render: %v\n%s", err, logs)
	}
	if res.Pages != 2 {
		t.Errorf("Result.Pages = %d, want 2", res.Pages)
	}
	home := between(readPublished(t, opts.PublishDir, "index.html"), "<main", "</main>")
	for _, want := range []string{`<a href="/docs/github/tools/">tools</a> <span class="forge">github</span>`, `<a href="/docs/gitlab/infra/">infra</a>`} {
		if !strings.Contains(home, want) {
			t.Errorf("home page lacks %s:\n%s", want, home)
		}
	}
	page := readPublished(t, opts.PublishDir, "docs/gitlab/infra/design/index.html")
	if !strings.Contains(page, "<h1>Infra design</h1>") {
		t.Errorf("namespaced page lacks its title")
	}
	if idx := readSearchIndex(t, opts.PublishDir); idx["/docs/github/tools/usage/"].Repository != "tools" {
		t.Errorf("search entry of a namespaced page = %+v", idx["/docs/github/tools/usage/"])
	}
}

func TestRenderPublishesNonMarkdownDocumentsAsFiles(t *testing.T) {
	project := filepath.Join(t.TempDir(), "project")
	writeFiles(t, project, map[string]string{
		"content/legacy/guide.md":         "# Guide\n\nSee the [old manual](manual.html) and the [spec](spec.adoc).\n",
		"content/legacy/manual.html":      "<html><body>old manual</body></html>",
		"content/legacy/spec.adoc":        "= Spec\n",
		"content/legacy/_index.md":        "---\ntitle: Legacy docs\n---\nThe legacy tree.\n",
		"content/legacy/both/_index.md":   "# Both\n",
		"content/legacy/both/index.md":    "# Index too\n",
		"content/legacy/both/page.md":     "# A page\n",
		"content/legacy/.github/notes.md": "# Hidden\n",
	})
	logs := &bytes.Buffer{}
	opts := fixtureOptions(t, project, logs)
	opts.Repositories = []Repository{{Name: "legacy", ContentPath: "legacy"}}
	if _, err := Render(context.Background(), opts); err != nil {
		t.Fatalf("Render: %v\n%s", err, logs)
	}
	if got := readPublished(t, opts.PublishDir, "docs/legacy/manual.html"); !strings.Contains(got, "old manual") {
		t.Errorf("HTML document not published as a file")
	}
	readPublished(t, opts.PublishDir, "docs/legacy/spec.adoc")
	guide := readPublished(t, opts.PublishDir, "docs/legacy/guide/index.html")
	if !strings.Contains(guide, `<a href="/docs/legacy/manual.html">old manual</a>`) {
		t.Errorf("link to a non-Markdown document not resolved:\n%s", between(guide, "<main", "</main>"))
	}
	if section := readPublished(t, opts.PublishDir, "docs/legacy/index.html"); !strings.Contains(section, "<h1>Legacy docs</h1>") {
		t.Errorf("a repository's own _index.md is not used as its page")
	}
	// An index.md beside an _index.md is left out and reported; without
	// that, Hugo would make the directory a leaf bundle and drop page.md.
	readPublished(t, opts.PublishDir, "docs/legacy/both/page/index.html")
	if !strings.Contains(logs.String(), `"file":"legacy/both/index.md"`) {
		t.Errorf("the left-out index.md is not reported:\n%s", logs)
	}
	if _, err := os.Stat(filepath.Join(opts.PublishDir, "docs/legacy/.github")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a hidden directory was published: %v", err)
	}
}

func TestRenderReportsTemplateErrorsWithContext(t *testing.T) {
	broken := fstest.MapFS{
		"layouts/all.html": {Data: []byte(`{{ .Title | nosuchfunction }}`)},
	}
	opts := fixtureOptions(t, newFixtureProject(t), &bytes.Buffer{})
	_, err := render(context.Background(), opts, broken)
	if err == nil {
		t.Fatal("render with a broken template succeeded")
	}
	if !strings.Contains(err.Error(), "render site "+opts.ProjectDir) || !strings.Contains(err.Error(), "nosuchfunction") {
		t.Errorf("error lacks context or cause: %v", err)
	}
}

func TestRenderReportsErrorsLoggedByTemplates(t *testing.T) {
	failing := fstest.MapFS{
		"layouts/all.html": {Data: []byte(`{{ if .IsHome }}{{ errorf "home page broken: %s" "missing data" }}{{ end }}{{ .Title }}`)},
	}
	logs := &bytes.Buffer{}
	opts := fixtureOptions(t, newFixtureProject(t), logs)
	_, err := render(context.Background(), opts, failing)
	if err == nil {
		t.Fatal("render with a template calling errorf succeeded")
	}
	if !strings.Contains(err.Error(), "home page broken: missing data") {
		t.Errorf("error does not say what Hugo logged: %v", err)
	}
	if !strings.Contains(err.Error(), "logged 1 error(s)") {
		t.Errorf("error miscounts the logged errors: %v", err)
	}
	if !strings.Contains(logs.String(), `"level":"error"`) {
		t.Errorf("the error was not logged:\n%s", logs)
	}
}

func TestRenderSendsHugoLogsToZerologNotStdout(t *testing.T) {
	warning := fstest.MapFS{
		"layouts/all.html": {Data: []byte(`{{ warnf "careful with %s" .Kind }}{{ .Title }}`)},
	}
	logs := &bytes.Buffer{}
	opts := fixtureOptions(t, newFixtureProject(t), logs)

	stdout := captureStdout(t, func() {
		if _, err := render(context.Background(), opts, warning); err != nil {
			t.Fatalf("render: %v", err)
		}
	})
	if stdout != "" {
		t.Errorf("Hugo wrote to stdout: %q", stdout)
	}
	var found bool
	for line := range strings.SplitSeq(strings.TrimSpace(logs.String()), "\n") {
		var entry map[string]any
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Fatalf("log line is not JSON: %q", line)
		}
		if entry["level"] == "warn" && strings.HasPrefix(entry["message"].(string), "careful with") && entry["source"] == "hugo" {
			found = true
		}
	}
	if !found {
		t.Errorf("Hugo's warning did not reach the zerolog logger:\n%s", logs)
	}
}

// captureStdout runs fn with os.Stdout redirected and returns what was
// written to it.
func captureStdout(t *testing.T, fn func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stdout
	os.Stdout = w
	done := make(chan string)
	go func() {
		var buf bytes.Buffer
		_, _ = buf.ReadFrom(r)
		done <- buf.String()
	}()
	func() {
		defer func() { os.Stdout = saved }()
		fn()
	}()
	w.Close()
	return <-done
}

// writeFiles creates files (slash paths relative to dir) with the given
// contents.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRenderWritesOnlyIntoProjectAndPublishDir(t *testing.T) {
	opts := fixtureOptions(t, newFixtureProject(t), &bytes.Buffer{})
	opts.Logger = zerolog.Logger{} // the zero logger must be usable too
	home, tmp := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("TMPDIR", tmp)
	t.Setenv("HUGO_CACHEDIR", "")

	if _, err := Render(context.Background(), opts); err != nil {
		t.Fatalf("Render: %v", err)
	}
	for _, dir := range []string{home, tmp} {
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			t.Errorf("render wrote into %s: %v", dir, entries)
		}
	}
	entries, err := os.ReadDir(opts.ProjectDir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, ",") != ".docweave,content" {
		t.Errorf("project dir holds %v, want only .docweave and content", names)
	}
}

func TestRenderIgnoresHugoEnvironmentVariables(t *testing.T) {
	t.Setenv("HUGO_TITLE", "Hijacked")
	t.Setenv("HUGO_BASEURL", "https://elsewhere.example/")
	opts, _, _ := renderFixture(t)
	home := readPublished(t, opts.PublishDir, "index.html")
	if strings.Contains(home, "Hijacked") || strings.Contains(home, "elsewhere") {
		t.Errorf("HUGO_* environment variables changed the site:\n%s", between(home, "<head", "</head>"))
	}
}

func TestRenderCanBeCalledConcurrently(t *testing.T) {
	errs := make(chan error, 2)
	var dirs [2]string
	for i := range 2 {
		opts := fixtureOptions(t, newFixtureProject(t), &bytes.Buffer{})
		dirs[i] = opts.PublishDir
		go func() {
			_, err := Render(context.Background(), opts)
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatalf("concurrent Render: %v", err)
		}
	}
	a, b := publishedTree(t, dirs[0]), publishedTree(t, dirs[1])
	if len(a) == 0 || len(a) != len(b) || a["index.html"] != b["index.html"] {
		t.Errorf("concurrent renders of the same content differ")
	}
}

func TestRenderLeavesGOMAXPROCSAlone(t *testing.T) {
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	renderFixture(t)
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("GOMAXPROCS = %d after Render, want the caller's 1", got)
	}
}
