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
		chromedp.WindowSize(1280, 860),
	}
	// A busy machine now and then fails Chromium's start-up (it exits
	// before it answers); the start is tried again, with a fresh profile,
	// before the test fails.
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(opts, chromedp.UserDataDir(t.TempDir()))...)
		ctx, cancelTab := chromedp.NewContext(allocCtx)
		// Bound the whole browser session, so a hung page fails the test
		// instead of the CI run.
		ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
		if err = chromedp.Do(ctx); err == nil {
			t.Cleanup(func() {
				cancelTimeout()
				cancelTab()
				cancelAlloc()
			})
			return ctx
		}
		cancelTimeout()
		cancelTab()
		cancelAlloc()
		t.Logf("start Chromium, attempt %d: %v", attempt, err)
	}
	t.Fatalf("start Chromium: %v", err)
	return nil
}
