package browsertest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site"
)

// versionedProject is the site package's versioned fixture: gamma in
// versions main (the default), v1.1.0 and v1.0.0 — guide/install.md is in
// main and v1.1.0, not in v1.0.0 — and delta, not versioned, beside it.
const versionedProject = "../testdata/versioned"

// renderVersioned renders the versioned fixture into a fresh directory and
// returns the publish directory.
func renderVersioned(t *testing.T) string {
	t.Helper()
	return renderVersionedWith(t, nil)
}

// renderVersionedWith is renderVersioned with more pages: content by path
// below content/.
func renderVersionedWith(t *testing.T, pages map[string]string) string {
	t.Helper()
	project := filepath.Join(t.TempDir(), "project")
	if err := os.CopyFS(project, os.DirFS(versionedProject)); err != nil {
		t.Fatalf("copy fixture: %v", err)
	}
	addPages(t, project, pages)
	publish := filepath.Join(t.TempDir(), "public")
	logs := &bytes.Buffer{}
	_, err := site.Render(context.Background(), site.Options{
		ProjectDir: project,
		PublishDir: publish,
		Generator:  config.Generator{Title: "Versioned Docs", Taxonomies: map[string]string{"tag": "tags"}},
		Repositories: []site.Repository{
			{Name: "gamma", ContentPath: "gamma", Versions: []site.Version{
				{Name: "main", Slug: "main", Default: true, Commit: strings.Repeat("1", 40), EditURL: "https://forge.example.org/o/gamma/edit/main/docs/{path}"},
				{Name: "v1.1.0", Slug: "v1.1.0", Tag: true, Commit: strings.Repeat("2", 40), EditURL: "https://forge.example.org/o/gamma/edit/v1.1.0/docs/{path}"},
				{Name: "v1.0.0", Slug: "v1.0.0", Tag: true, Commit: strings.Repeat("3", 40)},
			}},
			{Name: "delta", ContentPath: "delta"},
		},
		Logger: zerolog.New(logs),
	})
	if err != nil {
		t.Fatalf("render the versioned fixture: %v\n%s", err, logs)
	}
	return publish
}

// TestVersionsInABrowser switches versions the way a reader does: from a
// page of v1.1.0 to the same page in main, and from there to v1.0.0, which
// lacks the page, landing on its index; it follows the repository's
// redirect to the default version, uses the switcher without JavaScript,
// and searches, expecting each result to name its version.
func TestVersionsInABrowser(t *testing.T) {
	axe := loadAxe(t)
	publish := renderVersioned(t)
	root := serveSite(t, publish, "/")
	ctx := newBrowser(t)

	t.Run("switch to the same page and to an index", func(t *testing.T) {
		p := page{t, ctx}
		p.open(root + "/docs/gamma/v1.1.0/guide/install/")
		if got := p.text("nav.versions .versions-current"); got != "v1.1.0" {
			t.Fatalf("switcher shows %q as the current version", got)
		}
		p.openSwitcher(`nav.versions a[href="/docs/gamma/main/guide/install/"]`)
		p.screenshot("version-switcher-open")
		checkAccessibility(ctx, t, axe, "a versioned page with the switcher open (light)")
		p.eval(`document.documentElement.setAttribute("data-theme", "dark"); "ok"`)
		checkAccessibility(ctx, t, axe, "a versioned page with the switcher open (dark)")
		p.screenshot("version-switcher-dark")
		// The same on a phone, in both variants.
		p.do("narrow the window", chromedp.EmulateViewport(390, 844))
		checkAccessibility(ctx, t, axe, "a versioned page with the switcher open (phone, dark)")
		p.eval(`document.documentElement.setAttribute("data-theme", "light"); "ok"`)
		checkAccessibility(ctx, t, axe, "a versioned page with the switcher open (phone, light)")
		p.do("widen the window", chromedp.EmulateViewport(1280, 860))
		p.eval(`document.documentElement.setAttribute("data-theme", "auto"); "ok"`)

		p.do("choose main", chromedp.Click(`nav.versions a[href="/docs/gamma/main/guide/install/"]`), chromedp.WaitVisible(`main h1`), p.ready())
		if loc := p.location(); loc != root+"/docs/gamma/main/guide/install/" {
			t.Fatalf("switching to main led to %s, want the same page in main", loc)
		}
		if got := p.text("nav.versions .versions-current"); got != "main" {
			t.Errorf("after switching, the switcher shows %q", got)
		}
		if body := p.text("main .body"); !strings.Contains(body, "--channel=edge") {
			t.Errorf("the page shown is not main's install page: %q", body)
		}

		p.openSwitcher(`nav.versions a.version-fallback[href="/docs/gamma/v1.0.0/"]`)
		if title := p.eval(`document.querySelector('nav.versions a.version-fallback[href="/docs/gamma/v1.0.0/"]').title`); title != "Page not in v1.0.0: opens its index" {
			t.Errorf("the fallback entry's title = %q", title)
		}
		p.do("choose v1.0.0", chromedp.Click(`nav.versions a.version-fallback[href="/docs/gamma/v1.0.0/"]`), chromedp.WaitVisible(`main h1`), p.ready())
		if loc := p.location(); loc != root+"/docs/gamma/v1.0.0/" {
			t.Fatalf("switching to v1.0.0 (which lacks the page) led to %s, want its index", loc)
		}
		if got := p.text("main h1"); got != "Gamma 1.0 handbook" {
			t.Errorf("v1.0.0's index heading = %q", got)
		}
		if got := p.text(`.breadcrumbs [aria-current="page"]`); got != "v1.0.0" {
			t.Errorf("breadcrumbs end in %q, want the version", got)
		}
		checkAccessibility(ctx, t, axe, "a version's index page")
	})

	t.Run("repository root leads to the default version", func(t *testing.T) {
		p := page{t, ctx}
		p.do("open /docs/gamma/", chromedp.Navigate(root+"/docs/gamma/"))
		p.waitFor(`location.pathname === "/docs/gamma/main/" && document.documentElement.dataset.docweaveReady === "true"`, "the redirect to the default version")
		if got := p.text("nav.versions .versions-current"); got != "main" {
			t.Errorf("landed on version %q", got)
		}
		// The home page links to the default version directly.
		p.open(root + "/")
		p.do("follow gamma", chromedp.Click(`main .repositories a`), chromedp.WaitVisible(`nav.versions`), p.ready())
		if loc := p.location(); loc != root+"/docs/gamma/main/" {
			t.Errorf("the home page's gamma link led to %s", loc)
		}
	})

	t.Run("links from before versioning reach the default version", func(t *testing.T) {
		p := page{t, ctx}
		p.do("open an unversioned link", chromedp.Navigate(root+"/docs/gamma/guide/install/?q=1#top"))
		p.waitFor(`location.pathname === "/docs/gamma/main/guide/install/" && document.documentElement.dataset.docweaveReady === "true"`, "the move to the default version")
		if got := p.eval(`location.search + location.hash`); got != "?q=1#top" {
			t.Errorf("query and fragment after the move: %q", got)
		}
		// A path that names a version but has no page stays a 404: no loop.
		p.do("open a missing page of a version", chromedp.Navigate(root+"/docs/gamma/v1.0.0/guide/install/"))
		p.waitFor(`document.documentElement.dataset.docweaveReady === "true"`, "the 404 page")
		if loc, h1 := p.location(), p.text("main h1"); loc != root+"/docs/gamma/v1.0.0/guide/install/" || h1 != "Page not found" {
			t.Errorf("a missing page of v1.0.0 led to %s (%q), want the 404 page where it was", loc, h1)
		}
	})

	t.Run("switcher without JavaScript", func(t *testing.T) {
		p := page{t, ctx}
		setScripts := func(disabled bool) {
			t.Helper()
			if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: disabled}); err != nil {
				t.Fatalf("switch scripts (disabled %v): %v", disabled, err)
			}
		}
		setScripts(true)
		defer setScripts(false)
		p.do("open a page without scripts", chromedp.Navigate(root+"/docs/gamma/main/guide/install/"), chromedp.WaitVisible(`main h1`))
		if ready := p.eval(`String(document.documentElement.dataset.docweaveReady)`); ready == "true" {
			t.Fatal("the theme's script ran although scripts are disabled")
		}
		p.openSwitcher(`nav.versions a[href="/docs/gamma/v1.1.0/guide/install/"]`)
		p.do("choose v1.1.0", chromedp.Click(`nav.versions a[href="/docs/gamma/v1.1.0/guide/install/"]`), chromedp.WaitVisible(`nav.versions`))
		p.waitFor(`location.pathname === "/docs/gamma/v1.1.0/guide/install/"`, "the v1.1.0 page without scripts")
	})

	t.Run("search results name their version", func(t *testing.T) {
		p := page{t, ctx}
		// From a page outside gamma: the default version's pages first.
		p.open(root + "/docs/delta/usage/")
		p.do("search", chromedp.SendKeys(`#dw-search-input`, "sprockets"), chromedp.WaitVisible(`#dw-search-results .search-version`))
		results := p.eval(`Array.from(document.querySelectorAll("#dw-search-results li")).map(li =>
			li.querySelector(".search-title").textContent + " [" + ((li.querySelector(".search-version") || {}).textContent || "") + "]").join("; ")`)
		// Equal results of the other versions follow in the switcher's
		// order: newest first.
		want := "Using Delta []; Welcome to Gamma [ version main]; Welcome to Gamma [ version v1.1.0]; Welcome to Gamma [ version v1.0.0]"
		if results != want {
			t.Errorf("results from a delta page:\n got %s\nwant %s", results, want)
		}
		if label := p.eval(`getComputedStyle(document.querySelector("#dw-search-results .search-version")).display`); label != "inline-block" {
			t.Errorf("the version label is styled as %s, want inline-block", label)
		}
		p.screenshot("search-versions")
		checkAccessibility(ctx, t, axe, "search results with version labels")

		// From a page of v1.1.0: that version's pages first.
		p.open(root + "/docs/gamma/v1.1.0/intro/")
		p.do("search", chromedp.SendKeys(`#dw-search-input`, "sprockets"), chromedp.WaitVisible(`#dw-search-results .search-version`))
		first := p.eval(`Array.from(document.querySelectorAll("#dw-search-results li")).filter(li => li.querySelector(".search-version")).map(li => li.querySelector("a").getAttribute("href"))[0]`)
		if first != "/docs/gamma/v1.1.0/intro/" {
			t.Errorf("first gamma result read from v1.1.0 is %s, want v1.1.0's page", first)
		}
	})
}

// openSwitcher opens the version switcher of the page and fails the test
// at once, showing the entries, when it has no entry matching sel.
func (p page) openSwitcher(sel string) {
	p.t.Helper()
	p.do("open the version switcher", chromedp.Click(`nav.versions summary`), chromedp.WaitVisible(`nav.versions ul`))
	found := p.eval(`String(document.querySelector(` + "`" + sel + "`" + `) !== null)`)
	if found != "true" {
		p.t.Fatalf("the switcher has no entry %s; it holds:\n%s", sel, p.eval(`document.querySelector("nav.versions ul").outerHTML`))
	}
}
