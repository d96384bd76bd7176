package main

import (
	"context"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// updateStyleScreenshots rewrites docs/images/style-*.png, the pictures of
// docs/other-tools.md, from TestStylesInABrowser.
var updateStyleScreenshots = flag.Bool("update-style-screenshots", false, "write docs/images/style-*.png from TestStylesInABrowser")

// styleBrowser starts headless Chromium (Debian's, or DOCWEAVE_CHROMIUM)
// for one test; a missing browser fails the test.
func styleBrowser(t *testing.T) context.Context {
	t.Helper()
	exe := os.Getenv("DOCWEAVE_CHROMIUM")
	if exe == "" {
		exe = "/usr/bin/chromium"
	}
	if _, err := exec.LookPath(exe); err != nil {
		t.Fatalf("this test needs Chromium at %s (Debian package \"chromium\"), or its path in DOCWEAVE_CHROMIUM: %v", exe, err)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.Flag("hide-scrollbars", true), chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1100, 760))
	ctx, cancelTab := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelTimeout(); cancelTab(); cancelAlloc() })
	return ctx
}

// TestStylesInABrowser opens the style fixtures' site in Chromium: the
// GitBook tabs work with the keyboard (one panel shown, arrow keys move),
// and one page of each style is photographed for docs/other-tools.md
// (into the test's artifact directory; with -update-style-screenshots into
// docs/images).
func TestStylesInABrowser(t *testing.T) {
	out, _, _ := buildStyleFixtures(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Join(out, "public"))))
	t.Cleanup(srv.Close)
	ctx := styleBrowser(t)
	open := func(path string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+path), chromedp.WaitReady(`html[data-docweave-ready="true"]`)); err != nil {
			t.Fatalf("open %s: %v", path, err)
		}
	}
	eval := func(js string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return s
	}
	open("/docs/gitbook/getting-started/install/")
	state := `[...document.querySelectorAll('[role=tab]')].map(t => t.getAttribute('aria-selected')).join(' ') + ' | ' +
		[...document.querySelectorAll('[role=tabpanel]')].map(p => p.hidden ? 'hidden' : 'shown').join(' ') + ' | ' +
		String(document.querySelector('[role=tablist]').hidden)`
	if got := eval(state); got != "true false false | shown hidden hidden | false" {
		t.Errorf("tabs after load: %s", got)
	}
	if err := chromedp.Do(ctx, chromedp.SendKeys(`#tabs-0-tab-0`, kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	if got := eval(state + ` + ' | ' + document.activeElement.textContent`); got != "false true false | hidden shown hidden | false | macOS" {
		t.Errorf("tabs after the right arrow: %s", got)
	}
	if err := chromedp.Do(ctx, chromedp.SendKeys(`#tabs-0-tab-1`, kb.End)); err != nil {
		t.Fatal(err)
	}
	if got := eval(`document.activeElement.textContent`); got != "Windows" {
		t.Errorf("End focused %q, want the last tab", got)
	}
	for _, shot := range []struct{ name, path string }{
		{"gitbook", "/docs/gitbook/getting-started/install/"},
		{"mkdocs", "/docs/mkdocs/setup/"},
		{"docusaurus", "/docs/docusaurus/tutorial/plan-a-pass/"},
		{"hugo", "/docs/hugo/docs/install/"},
		{"plain", "/docs/plain/api/"},
	} {
		open(shot.path)
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil || len(png) < 1000 {
			t.Fatalf("screenshot of %s: %v (%d bytes)", shot.path, err, len(png))
		}
		dir := t.ArtifactDir()
		if *updateStyleScreenshots {
			dir = filepath.Join("..", "..", "docs", "images")
		}
		if err := os.WriteFile(filepath.Join(dir, "style-"+shot.name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
