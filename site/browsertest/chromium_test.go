package browsertest

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromiumPath is where Debian's chromium package installs the browser.
const chromiumPath = "/usr/bin/chromium"

// findChromium returns the browser to drive, failing the test with the
// package to install when there is none: a browser test that cannot run
// must not pass.
func findChromium(t *testing.T) string {
	t.Helper()
	path := os.Getenv("DOCWEAVE_CHROMIUM")
	if path == "" {
		path = chromiumPath
	}
	if _, err := exec.LookPath(path); err != nil {
		t.Fatalf("browser tests need Chromium at %s (Debian package \"chromium\": apt-get install -y chromium), or its path in DOCWEAVE_CHROMIUM: %v", path, err)
	}
	return path
}

// newBrowser starts a headless Chromium with a fresh profile and returns a
// context for driving one tab. The browser is stopped when the test ends.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(findChromium(t)),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 860),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(allocCtx)
	// Bound the whole browser session, so a hung page fails the test
	// instead of the CI run.
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() {
		cancelTimeout()
		cancelTab()
		cancelAlloc()
	})
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	return ctx
}
