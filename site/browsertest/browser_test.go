package browsertest

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// page wraps the browser tab of a test with helpers that fail the test.
type page struct {
	t   *testing.T
	ctx context.Context
}

// do runs browser actions, failing the test on the first error.
func (p page) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, steps...); err != nil {
		p.t.Fatalf("%s: %v", what, err)
	}
}

// open loads url and waits until the theme's script has run.
func (p page) open(url string) {
	p.t.Helper()
	p.do("open "+url, chromedp.Navigate(url), p.ready())
}

// ready waits until the theme's script has set up the page.
func (p page) ready() chromedp.Action[chromedp.Void] {
	return chromedp.WaitReady(`html[data-docweave-ready="true"]`)
}

func (p page) text(sel string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.ctx, chromedp.Text(sel))
	if err != nil {
		p.t.Fatalf("text of %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

func (p page) eval(js string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](js))
	if err != nil {
		p.t.Fatalf("evaluate %s: %v", js, err)
	}
	return s
}

// number evaluates a JavaScript expression whose value is a number.
func (p page) number(js string) float64 {
	p.t.Helper()
	n, err := chromedp.Run(p.ctx, chromedp.Evaluate[float64](js))
	if err != nil {
		p.t.Fatalf("evaluate %s: %v", js, err)
	}
	return n
}

func (p page) location() string {
	p.t.Helper()
	loc, err := chromedp.Run(p.ctx, chromedp.Location())
	if err != nil {
		p.t.Fatal(err)
	}
	return loc
}

// screenshot saves the whole page as <name>.png in the test's artifact
// directory (kept with go test -artifacts).
func (p page) screenshot(name string) {
	p.t.Helper()
	// Quality 100 gives a PNG; lower values give a JPEG.
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(p.t.ArtifactDir(), name+".png"), png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	if doc, ok := documented[name]; ok && *updateScreenshots {
		if err := os.WriteFile(filepath.Join("..", "..", "docs", "images", doc), png, 0o644); err != nil {
			p.t.Fatal(err)
		}
	}
}

// updateScreenshots makes the tour write the screenshots docs/ shows, so
// they show the theme as it is: go test ./site/browsertest -update-screenshots.
var updateScreenshots = flag.Bool("update-screenshots", false, "write the screenshots docs/ shows to docs/images")

// documented maps the tour's screenshots that docs/ shows to their file
// names in docs/images.
var documented = map[string]string{
	"home":                 "front-page.png",
	"beta-getting-started": "page.png",
	"search":               "search.png",
	"phone-home":           "front-page-phone.png",
	"phone-page":           "page-phone.png",
	"phone-search":         "search-phone.png",
	"search-words":         "search-words.png",
	"search-scope":         "search-scope.png",
}

// background is the computed background colour of the body.
func (p page) background() string {
	return p.eval(`getComputedStyle(document.body).backgroundColor`)
}

const (
	lightBackground = "rgb(255, 255, 255)"
	darkBackground  = "rgb(13, 17, 23)"
)

// TestSiteInABrowser is a reader's tour of the fixture site in headless
// Chromium: the home page, the menu to a page of the second repository,
// the search box, the colour themes, a tag, the keyboard, the small-screen
// menu and the 404 page, then axe-core on every page type at both widths
// in both colour variants.
func TestSiteInABrowser(t *testing.T) {
	axe := loadAxe(t)
	// Pages as in daemon mode, with the live-reload client connected.
	reload := startReloadServer(t, false)
	publish := renderFixture(t, "", map[string]any{"collapsibleMenu": true, "showVisitedLinks": true, "docweaveLiveReloadPort": reload.port})
	root := serveSite(t, publish, "/")
	ctx := newBrowser(t)

	t.Run("home", func(t *testing.T) {
		p := page{t, ctx}
		p.open(root + "/")
		if got := p.text("main h1"); got != "Fixture Docs" {
			t.Errorf("home heading = %q", got)
		}
		if got := p.text("main .repositories"); !strings.Contains(got, "alpha") || !strings.Contains(got, "beta") {
			t.Errorf("home lists %q, want both repositories", got)
		}
		if bg := p.background(); bg != lightBackground {
			t.Errorf("background = %s, want the light variant's %s (auto, and the browser prefers light)", bg, lightBackground)
		}
		p.screenshot("home")
	})

	t.Run("menu to a page of the second repository", func(t *testing.T) {
		p := page{t, ctx}
		p.open(root + "/")
		p.do("follow beta in the menu", chromedp.Click(`#dw-menu a[href="/docs/beta/"]`), chromedp.WaitVisible(`#dw-menu a[href="/docs/beta/api/"]`), p.ready())
		// A page carries its own section's navigation and the way up:
		// the pages of a directory beside it are not in the menu; its
		// link leads to its section page, whose menu opens it.
		if n := p.eval(`String(document.querySelectorAll('#dw-menu a[href="/docs/beta/usage/getting-started/"]').length)`); n != "0" {
			t.Errorf("the menu of /docs/beta/ carries the pages of Usage (%s links)", n)
		}
		p.do("follow Usage", chromedp.Click(`#dw-menu a[href="/docs/beta/usage/"]`), chromedp.WaitVisible(`#dw-menu a[href="/docs/beta/usage/getting-started/"]`), p.ready())
		p.do("open Getting started", chromedp.Click(`#dw-menu a[href="/docs/beta/usage/getting-started/"]`), chromedp.WaitVisible(`main h1`), p.ready())
		if got := p.text("main h1"); got != "Getting Started with Beta" {
			t.Errorf("page heading = %q", got)
		}
		if got := p.text(`#dw-menu [aria-current="page"]`); got != "Getting Started with Beta" {
			t.Errorf("menu marks %q as current", got)
		}
		// The current page's directory is unfolded by itself.
		if exp := p.eval(`document.querySelector('#dw-menu button[aria-label="Show pages of Usage"]').getAttribute("aria-expanded")`); exp != "true" {
			t.Errorf("the current page's directory is folded (aria-expanded %s)", exp)
		}
		if got := p.text(".breadcrumbs"); !strings.HasPrefix(strings.TrimSpace(got), "beta") || strings.Contains(got, "Beta Handbook") || !strings.Contains(got, "Usage") {
			t.Errorf("breadcrumbs = %q", got)
		}
		p.screenshot("beta-getting-started")
	})

	t.Run("search", func(t *testing.T) {
		p := page{t, ctx}
		p.open(root + "/docs/alpha/intro/")
		p.do("type a query", chromedp.SendKeys(`#dw-search-input`, "endpoints"), chromedp.WaitVisible(`#dw-search-results a`))
		if got := p.text(`#dw-search-results li:first-child .search-title`); got != "Endpoints" {
			t.Errorf("first result = %q, want Endpoints", got)
		}
		if got := p.text(`#dw-search-results li:first-child .search-where`); got != "beta › Beta API" {
			t.Errorf("first result's place = %q", got)
		}
		if status := p.eval(`document.getElementById("dw-search-status").textContent`); !strings.HasSuffix(status, "result") && !strings.HasSuffix(status, "results") {
			t.Errorf("search status for screen readers = %q", status)
		}
		p.screenshot("search")
		// Keyboard: Enter opens the first result.
		p.do("press Enter", chromedp.SendKeys(`#dw-search-input`, kb.Enter), chromedp.WaitVisible(`main h1`), p.ready())
		if loc := p.location(); !strings.HasSuffix(loc, "/docs/beta/api/endpoints/") {
			t.Errorf("Enter led to %s", loc)
		}
		// A query matching text only, with the match highlighted.
		p.do("search page text", chromedp.SendKeys(`#dw-search-input`, "gadgets"), chromedp.WaitVisible(`#dw-search-results mark`))
		if got := p.text(`#dw-search-results li:first-child .search-title`); got != "Welcome to Alpha" {
			t.Errorf("result for a word of the text = %q", got)
		}
		p.do("clear", chromedp.SendKeys(`#dw-search-input`, kb.Escape), chromedp.WaitNotVisible(`#dw-search-results`))
		p.do("no match", chromedp.SendKeys(`#dw-search-input`, "zzyzx"), chromedp.WaitVisible(`#dw-search-results .search-none`))
	})

	t.Run("colour themes", func(t *testing.T) {
		p := page{t, ctx}
		p.open(root + "/docs/alpha/guide/configure/")
		// The select's options: Auto, Light, Dark.
		p.do("choose dark", chromedp.SendKeys(`#dw-variant`, kb.ArrowDown+kb.ArrowDown))
		if theme := p.eval(`document.documentElement.dataset.theme`); theme != "dark" {
			t.Fatalf("data-theme = %q after choosing Dark", theme)
		}
		if bg := p.background(); bg != darkBackground {
			t.Errorf("dark background = %s, want %s", bg, darkBackground)
		}
		p.screenshot("configure-dark")
		// The choice is remembered.
		p.do("reload", chromedp.Reload(), p.ready())
		if bg := p.background(); bg != darkBackground {
			t.Errorf("after a reload the background is %s, want the chosen dark", bg)
		}
		p.do("choose light", chromedp.SendKeys(`#dw-variant`, kb.ArrowUp))
		if bg := p.background(); bg != lightBackground {
			t.Errorf("light background = %s", bg)
		}
		p.screenshot("configure-light")
		// Auto follows the reader's system preference.
		p.do("choose auto", chromedp.SendKeys(`#dw-variant`, kb.ArrowUp))
		if theme := p.eval(`document.documentElement.dataset.theme`); theme != "auto" {
			t.Fatalf("data-theme = %q after choosing Auto", theme)
		}
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
		}); err != nil {
			t.Fatal(err)
		}
		if bg := p.background(); bg != darkBackground {
			t.Errorf("auto with a system preferring dark: background %s, want %s", bg, darkBackground)
		}
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{}); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("follow a tag", func(t *testing.T) {
		p := page{t, ctx}
		p.open(root + "/docs/alpha/guide/configure/")
		p.do("click the setup tag", chromedp.Click(`a[rel="tag"][href="/tags/setup/"]`), chromedp.WaitVisible(`main h1`), p.ready())
		if got := p.text("main h1"); got != "Tags: setup" {
			t.Errorf("tag page heading = %q", got)
		}
		// The term lists pages of both repositories, each rendered on its
		// own, with the repository they belong to.
		if got := p.eval(`Array.from(document.querySelectorAll('main li .where')).map(e => e.textContent).sort().join(',')`); got != "alpha,alpha,beta" {
			t.Errorf("the setup term lists pages of %q, want two of alpha and one of beta", got)
		}
		p.do("open a tagged page", chromedp.Click(`main a[href="/docs/alpha/guide/install/"]`), chromedp.WaitVisible(`main h1`), p.ready())
		if got := p.text("main h1"); got != "Installing Alpha" {
			t.Errorf("tagged page heading = %q", got)
		}
		if loaded := p.eval(`String(document.querySelector('main img').naturalWidth > 0)`); loaded != "true" {
			t.Error("the page's image did not load")
		}
	})

	t.Run("keyboard", func(t *testing.T) {
		p := page{t, ctx}
		p.open(root + "/docs/alpha/guide/configure/")
		p.do("tab to the skip link", chromedp.KeyEvent(kb.Tab))
		if got := p.eval(`document.activeElement.textContent`); got != "Skip to content" {
			t.Fatalf("first Tab focuses %q, want the skip link", got)
		}
		p.do("follow it", chromedp.KeyEvent(kb.Enter))
		if got := p.eval(`document.activeElement.id`); got != "dw-content" {
			t.Errorf("after the skip link the focus is on #%s, want the main content", got)
		}
	})

	t.Run("small screen", func(t *testing.T) {
		p := page{t, ctx}
		p.do("narrow the window", chromedp.EmulateViewport(390, 844))
		defer p.do("widen the window", chromedp.EmulateViewport(1280, 860))
		p.open(root + "/docs/alpha/guide/configure/")
		if shown := p.eval(`getComputedStyle(document.getElementById("dw-menu")).display`); shown != "none" {
			t.Errorf("the menu is shown (display %s) before the menu button is pressed", shown)
		}
		// Nothing scrolls sideways but a wide table, inside its region.
		for _, path := range []string{"/docs/alpha/guide/configure/", "/docs/alpha/guide/wide/"} {
			p.open(root + path)
			if w := p.number(`document.documentElement.scrollWidth`); w > 390 {
				t.Errorf("%s scrolls sideways: scrollWidth %.0f on a 390 px viewport", path, w)
			}
		}
		if w := p.number(`document.querySelector(".table-scroll").scrollWidth - document.querySelector(".table-scroll").clientWidth`); w <= 0 {
			t.Errorf("the wide table does not scroll inside its region (overflow %.0f px)", w)
		}
		p.open(root + "/docs/alpha/guide/configure/")
		// The table of contents comes after the title, not above it.
		if order := p.eval(`String(document.querySelector("article .toc-inline").getBoundingClientRect().top > document.querySelector("main h1").getBoundingClientRect().top)`); order != "true" {
			t.Errorf("the table of contents is not after the title")
		}
		if shown := p.eval(`getComputedStyle(document.querySelector(".layout > .toc")).display`); shown != "none" {
			t.Errorf("the table of contents beside the page shows too (display %s)", shown)
		}
		p.do("open the menu", chromedp.Click(`.menu-button`), chromedp.WaitVisible(`#dw-menu`))
		if exp := p.eval(`document.querySelector(".menu-button").getAttribute("aria-expanded")`); exp != "true" {
			t.Errorf("menu button aria-expanded = %s", exp)
		}
		// Entries a thumb can hit.
		if h := p.number(`Math.min(...Array.from(document.querySelectorAll("#dw-menu a")).map(a => a.getBoundingClientRect().height))`); h < 44 {
			t.Errorf("a menu entry is %.0f px tall, want at least 44", h)
		}
		p.screenshot("small-screen-menu")

		// A short page has no blank gap under the header.
		p.open(root + "/tags/")
		if gap := p.number(`document.querySelector("main h1").getBoundingClientRect().top - document.querySelector(".site-header").getBoundingClientRect().bottom`); gap > 60 {
			t.Errorf("%.0f px between the header and the title of a short page", gap)
		}
	})

	// What docs/images shows of a phone (axe-core checks these pages
	// below, with every other page type).
	t.Run("phone screenshots", func(t *testing.T) {
		p := page{t, ctx}
		p.do("narrow the window", chromedp.EmulateViewport(390, 844))
		defer p.do("widen the window", chromedp.EmulateViewport(1280, 860))
		p.open(root + "/")
		p.screenshot("phone-home")
		p.open(root + "/docs/beta/usage/getting-started/")
		p.screenshot("phone-page")
		p.do("type a query", chromedp.SendKeys(`#dw-search-input`, "endpoints"), chromedp.WaitVisible(`#dw-search-results a`))
		p.screenshot("phone-search")
	})

	// Zero serious or critical axe-core findings on every page type, at
	// both widths, in both colour variants (the version switcher is
	// checked the same way in TestVersionsInABrowser).
	t.Run("every page type, width and variant", func(t *testing.T) {
		p := page{t, ctx}
		defer p.do("widen the window", chromedp.EmulateViewport(1280, 860))
		defer p.eval(`localStorage.removeItem("docweave-theme"), ""`)
		pages := []struct{ what, path, query string }{
			{"home", "/", ""},
			{"repository index", "/docs/alpha/", ""},
			{"page with tables and code", "/docs/alpha/guide/configure/", ""},
			{"page wider than a phone", "/docs/alpha/guide/wide/", ""},
			{"taxonomy", "/tags/", ""},
			{"term", "/tags/setup/", ""},
			{"search results", "/docs/alpha/intro/", "endpoints"},
			{"not found", "/docs/no/such/page/", ""},
		}
		for _, width := range []struct {
			name string
			w, h int64
		}{{"desktop", 1280, 860}, {"phone", 390, 844}} {
			p.do("set the window to "+width.name, chromedp.EmulateViewport(width.w, width.h))
			for _, variant := range []string{"light", "dark"} {
				p.open(root + "/")
				p.eval(`localStorage.setItem("docweave-theme", "` + variant + `"), ""`)
				for _, pg := range pages {
					p.open(root + pg.path)
					if got := p.eval(`document.documentElement.dataset.theme`); got != variant {
						t.Fatalf("%s: data-theme %q, want %q", pg.path, got, variant)
					}
					if pg.query != "" {
						p.do("search", chromedp.SendKeys(`#dw-search-input`, pg.query), chromedp.WaitVisible(`#dw-search-results a`))
					}
					checkAccessibility(ctx, t, axe, pg.what+" ("+width.name+", "+variant+")")
				}
			}
		}
	})

	t.Run("not found", func(t *testing.T) {
		p := page{t, ctx}
		p.open(root + "/docs/no/such/page/")
		if got := p.text("main h1"); got != "Page not found" {
			t.Errorf("404 heading = %q", got)
		}
	})

}

// TestLiveReloadInABrowser opens a page of a site rendered for daemon mode
// while the live-reload server refuses the first stream (as the daemon does
// while restarting): the page must reconnect by itself and reload on the
// server's reload event.
func TestLiveReloadInABrowser(t *testing.T) {
	reload := startReloadServer(t, true)
	publish := renderFixture(t, "", map[string]any{"docweaveLiveReloadPort": reload.port})
	root := serveSite(t, publish, "/")
	ctx := newBrowser(t)
	p := page{t, ctx}
	p.open(root + "/docs/beta/")
	waitForStream(t, reload, 2)
	p.eval(`window.docweaveTestMarker = "before"; "ok"`)
	reload.sendReload("b2")
	p.waitFor(`window.docweaveTestMarker === undefined && document.readyState === "complete"`, "the page to reload after the reload event")
	if loc := p.location(); !strings.HasSuffix(loc, "/docs/beta/") {
		t.Errorf("after the reload the page is %s", loc)
	}
	// The reloaded page connects again.
	waitForStream(t, reload, 3)
}

// waitFor waits until the JavaScript condition holds in the tab, across
// navigations (a navigation ends a single poll, so it is polled again).
func (p page) waitFor(condition, what string) {
	p.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	var last error
	for time.Now().Before(deadline) {
		_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](condition, chromedp.WithPollingTimeout(2*time.Second), chromedp.WithPollingInterval(50*time.Millisecond)))
		if err == nil {
			return
		}
		last = err
	}
	p.t.Fatalf("waiting for %s: %v", what, last)
}

// waitForStream waits until the live-reload server has opened its n-th
// stream (or later).
func waitForStream(t *testing.T, s *reloadServer, n int) {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case got := <-s.connected:
			if got >= n {
				return
			}
		case <-timeout:
			t.Fatalf("the page did not open live-reload stream %d", n)
		}
	}
}

// TestSiteUnderASubPath serves the site under /handbook/ (generator.base_url
// "/handbook/"): styles, scripts, the search index and the results must all
// resolve below the sub-path.
func TestSiteUnderASubPath(t *testing.T) {
	publish := renderFixture(t, "/handbook/", nil)
	root := serveSite(t, publish, "/handbook/")
	ctx := newBrowser(t)
	p := page{t, ctx}
	p.open(root + "/")
	if bg := p.background(); bg != lightBackground {
		t.Errorf("background = %s: the style sheet did not load under the sub-path", bg)
	}
	p.do("search", chromedp.SendKeys(`#dw-search-input`, "tuning"), chromedp.WaitVisible(`#dw-search-results a`))
	p.do("open the result", chromedp.Click(`#dw-search-results li:first-child a`), chromedp.WaitVisible(`main h1`), p.ready())
	if loc := p.location(); !strings.HasSuffix(loc, "/handbook/docs/alpha/guide/advanced/tuning/") {
		t.Errorf("search result led to %s", loc)
	}
	if got := p.text("main h1"); got != "Tuning" {
		t.Errorf("heading = %q", got)
	}
	p.do("follow a breadcrumb", chromedp.Click(`.breadcrumbs a[href="/handbook/docs/alpha/guide/"]`), chromedp.WaitVisible(`main h1`))
	if got := p.text("main h1"); got != "Guide" {
		t.Errorf("breadcrumb led to %q", got)
	}
}
