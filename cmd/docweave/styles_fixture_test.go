package main

import (
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/report"
)

// styleFixture is one fixture repository written for another
// documentation tool, and how docweave is configured to read it.
type styleFixture struct {
	name  string   // the fixture directory under testdata/fixtures
	paths []string // its documentation roots
	// notPages are Markdown files of the roots that are not pages (a
	// GitBook SUMMARY.md, which gives the menu instead).
	notPages []string
}

// styleFixtures are the repositories of TestStylesOfOtherToolsBuildInOneSite,
// one per documentation tool people write for.
var styleFixtures = []styleFixture{
	{name: "gitbook", paths: []string{"docs"}, notPages: []string{"docs/SUMMARY.md"}},
	{name: "mkdocs", paths: []string{"docs"}},
	{name: "docusaurus", paths: []string{"docs"}},
	{name: "hugo", paths: []string{"content"}},
	{name: "plain", paths: []string{"docs"}},
}

// pagesGiven counts the Markdown pages of a fixture's documentation roots.
func (f styleFixture) pagesGiven(files map[string]string) int {
	n := 0
	for name := range files {
		if !strings.HasSuffix(name, ".md") || slices.Contains(f.notPages, name) {
			continue
		}
		for _, root := range f.paths {
			if strings.HasPrefix(name, root+"/") {
				n++
			}
		}
	}
	return n
}

// mediaHost stands, in the fixtures, for the public site GitBook embeds
// lead to; the test serves it from a local server so that the link
// verifier checks real links without the network.
const mediaHost = "https://media.example.org"

// buildStyleFixtures builds every style fixture in one build with
// --verify-links and returns the output directory and the report.
func buildStyleFixtures(t *testing.T) (string, report.Report, map[string]int) {
	t.Helper()
	media := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "<!doctype html><title>media</title>")
	}))
	t.Cleanup(media.Close)
	dir := t.TempDir()
	out := filepath.Join(dir, "site")
	var repos strings.Builder
	given := map[string]int{}
	for _, f := range styleFixtures {
		files := fixtureFiles(t, f.name)
		for name, text := range files {
			files[name] = strings.ReplaceAll(text, mediaHost, media.URL)
		}
		given[f.name] = f.pagesGiven(files)
		repo := gittest.NewRepo(t, files)
		fmt.Fprintf(&repos, "  - {name: %s, url: %q, paths: [%s]}\n", f.name, repo.FileURL(), strings.Join(f.paths, ", "))
	}
	cfg := filepath.Join(dir, "docweave.yaml")
	writeFile(t, cfg, fmt.Sprintf(`repositories:
%sdaemon:
  link_verification: {rate_limit_delay: 0s}
output: {directory: %s}
`, repos.String(), out))
	res := run(t, dir, nil, "build", "-c", cfg, "--log-format", "json", "--verify-links")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, lastLines(res.stderr, 20))
	}
	return out, readReport(t, out), given
}

// TestStylesOfOtherToolsBuildInOneSite builds one repository written for
// each of GitBook, MkDocs, Docusaurus and Hugo, and a plain Markdown tree
// (testdata/fixtures/{gitbook,mkdocs,docusaurus,hugo,plain}) in one build
// with the link verifier on. Every page given is rendered, no link to a
// Markdown file is left in the HTML, and the one link planted to lead
// nowhere is the only one reported, with its file and line, and the only
// one the verifier finds broken.
func TestStylesOfOtherToolsBuildInOneSite(t *testing.T) {
	out, rep, given := buildStyleFixtures(t)
	rendered := map[string]int{}
	for _, r := range rep.Repositories {
		if r.Render != nil {
			rendered[r.Name] = r.Render.Pages
		}
	}
	for name, n := range given {
		if n == 0 || rendered[name] != n {
			t.Errorf("repository %s: %d pages rendered, %d given", name, rendered[name], n)
		}
	}
	var unresolved []string
	for _, is := range rep.Issues {
		if is.Code == report.CodeLinkUnresolved {
			unresolved = append(unresolved, is.Repository+" "+is.Path+": "+is.Message)
		}
	}
	sort.Strings(unresolved)
	want := `plain docs/faq.md: line 9: link "roadmap.md" leads to no page or file of the repository's documentation`
	if strings.Join(unresolved, "\n") != want {
		t.Errorf("LINK_UNRESOLVED issues:\n%s\nwant:\n%s", strings.Join(unresolved, "\n"), want)
	}
	if rep.Links == nil || rep.Links.Status != report.LinksComplete || rep.Links.Internal < 30 || rep.Links.External < 1 {
		t.Fatalf("link verification: %+v", rep.Links)
	}
	var broken []string
	for _, b := range rep.Links.BrokenLinks {
		broken = append(broken, b.URL)
	}
	if got := strings.Join(broken, " "); got != "/docs/plain/roadmap.md" {
		t.Errorf("broken links the verifier found: %q", got)
	}
	// Not <link rel="alternate">: it names the page's Markdown copy.
	md := regexp.MustCompile(`(?:<a\s[^>]*?href|src)="(/[^"]*\.md)[#"?]`)
	err := filepath.WalkDir(filepath.Join(out, "public"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".html" {
			return err
		}
		data, err := os.ReadFile(p)
		for _, m := range md.FindAllStringSubmatch(string(data), -1) {
			if m[1] != "/docs/plain/roadmap.md" {
				t.Errorf("%s keeps a link to a Markdown file: %s", p, m[1])
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestGitBookBlocksRenderAsTheThemesComponents checks, on the GitBook
// fixture of the same build, that tabs, titled code, embeds and content
// references became the theme's tabs, titled code blocks and link cards,
// and that no GitBook tag is left as text.
func TestGitBookBlocksRenderAsTheThemesComponents(t *testing.T) {
	out, _, _ := buildStyleFixtures(t)
	if os.Getenv("KEEP_SITE") != "" {
		_ = os.CopyFS(os.Getenv("KEEP_SITE"), os.DirFS(out))
	}
	read := func(page string) string {
		data, err := os.ReadFile(filepath.Join(out, "public", "docs", "gitbook", page, "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "{%") {
			t.Errorf("%s keeps a GitBook tag as text", page)
		}
		return string(data)
	}
	install := read("getting-started/install")
	for _, want := range []string{
		`role="tablist" hidden`,
		`role="tab" id="tabs-0-tab-2" aria-controls="tabs-0-panel-2" aria-selected="false" tabindex="-1" data-label="Windows">Windows</button>`,
		`role="tabpanel" id="tabs-0-panel-0" aria-labelledby="tabs-0-tab-0"`,
		`<p class="tab-heading">macOS</p>`,
		`href="/docs/gitbook/getting-started/first-relay/"`,
		`<figure class="titled-code"><figcaption>beacon.toml</figcaption>`,
		`class="link-card link-card-embed"`,
	} {
		if !strings.Contains(install, want) {
			t.Errorf("the install page lacks %s", want)
		}
	}
	if n := strings.Count(install, `role="tabpanel"`); n != 3 {
		t.Errorf("the install page has %d tab panels, want 3", n)
	}
	home := read("")
	for _, want := range []string{
		`<div class="link-card link-card-page">` + "\n" + `<p><a href="/docs/gitbook/getting-started/">`,
		`<a href="/docs/gitbook/operating/troubleshooting/">`,
		`class="callout callout-info"`,
	} {
		if !strings.Contains(home, want) {
			t.Errorf("the GitBook home page lacks %s", want)
		}
	}
	// A content reference saved without its link gets one from its url,
	// resolved like any other link.
	troubleshooting := read("operating/troubleshooting")
	if want := `<div class="link-card link-card-page">` + "\n" + `<p><a href="/docs/gitbook/getting-started/install/">`; !strings.Contains(troubleshooting, want) {
		t.Errorf("the troubleshooting page lacks %s", want)
	}
}

// TestMkDocsNavOrdersTheMenu: the MkDocs fixture's mkdocs.yml, at its
// repository root outside the documentation root, orders the menu and
// names its entries (Setting up before About, as nav says, where titles
// would sort About first; config.md shown as nav's "Configuration"), and
// is neither rendered nor published.
func TestMkDocsNavOrdersTheMenu(t *testing.T) {
	out, _, _ := buildStyleFixtures(t)
	data, err := os.ReadFile(filepath.Join(out, "public", "docs", "mkdocs", "usage", "config", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	menu := string(data)
	if i := strings.Index(menu, `<nav id="dw-menu"`); i >= 0 {
		menu = menu[i:]
	}
	setup, about := strings.Index(menu, `href="/docs/mkdocs/setup/"`), strings.Index(menu, `href="/docs/mkdocs/about/"`)
	if setup < 0 || about < 0 || setup > about {
		t.Errorf("menu order: setup at %d, about at %d; want setup first, as nav says:\n%s", setup, about, menu)
	}
	if !strings.Contains(menu, `href="/docs/mkdocs/usage/config/" aria-current="page">Configuration</a>`) {
		t.Errorf("config.md is not shown as nav's Configuration:\n%s", menu)
	}
	for _, leaked := range []string{"mkdocs.yml", ".docweave-repo"} {
		if found := findFile(t, filepath.Join(out, "public"), leaked); found != "" {
			t.Errorf("%s is published: %s", leaked, found)
		}
	}
}

// findFile returns the first path below dir whose name is name, or "".
func findFile(t *testing.T, dir, name string) string {
	t.Helper()
	var found string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == name && found == "" {
			found = p
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}
