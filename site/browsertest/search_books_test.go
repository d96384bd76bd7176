package browsertest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/httpsrv/docs"
)

// TestOtherVersionsAreLoadedOnlyWhenNeeded: a search loads the books of
// the versions it ranks first (unversioned repositories and default
// versions, for a reader outside gamma), and the other versions' books
// only when those give fewer than ten results. "flywheel" is on twelve
// pages of delta and on one of gamma v1.1.0: enough without v1.1.0's
// book. "gyroscope" is on a page of v1.1.0 only: its book must load, and
// the page be found.
func TestOtherVersionsAreLoadedOnlyWhenNeeded(t *testing.T) {
	pages := map[string]string{
		"gamma/v1.1.0/gyro.md": "---\ntitle: Gyro\n---\n\nThe gyroscope keeps a flywheel steady.\n",
	}
	for i := range 12 {
		pages[fmt.Sprintf("delta/wheels/w%02d.md", i)] = fmt.Sprintf("---\ntitle: Wheel %d\n---\n\nA flywheel stores energy, wheel %d.\n", i, i)
	}
	publish := renderVersionedWith(t, pages)
	manifest := readSearchManifest(t, publish)
	var others []string // files of books that rank later for a delta reader
	for _, b := range manifest.Books {
		if b.Version != "" && !b.VersionIsDefault {
			others = append(others, b.File)
		}
	}
	if len(others) != 2 {
		t.Fatalf("books of other versions: %v, want v1.1.0's and v1.0.0's", others)
	}
	root := "http://" + listen(t, docs.New(docs.Options{PublicDir: publish, Log: zerolog.Nop()}))
	ctx := newBrowser(t)
	p := page{t, ctx}
	loadedOthers := func() []string {
		got := p.eval(`performance.getEntriesByType("resource").map(e => e.name).join("\n")`)
		var loaded []string
		for _, f := range others {
			if strings.Contains(got, f) {
				loaded = append(loaded, f)
			}
		}
		return loaded
	}

	p.open(root + "/docs/delta/usage/")
	p.do("search flywheel", chromedp.SendKeys(`#dw-search-input`, "flywheel"), chromedp.WaitVisible(`#dw-search-results a`))
	p.waitFor(`document.querySelectorAll("#dw-search-results li").length >= 10`, "ten results for flywheel")
	if loaded := loadedOthers(); len(loaded) > 0 {
		t.Errorf("ten results from the first books, yet other versions' books loaded: %v", loaded)
	}

	p.do("search gyroscope", chromedp.SendKeys(`#dw-search-input`, kb.Escape), chromedp.Click(`main h1`),
		chromedp.Click(`#dw-search-input`), chromedp.SendKeys(`#dw-search-input`, "gyroscope"))
	p.waitFor(`(document.querySelector("#dw-search-results") || {}).textContent.includes("Gyro")`, "the v1.1.0 page for gyroscope")
	if loaded := loadedOthers(); len(loaded) == 0 {
		t.Error("the v1.1.0 page was found without its book loading")
	}
}

// searchManifest is what the tests read of a site's search manifest
// (site/searchindex.go).
type searchManifest struct {
	Books []struct {
		Repository       string
		Version          string
		VersionIsDefault bool
		File             string
	}
	Words []struct{ First string }
}

// readSearchManifest reads the search manifest of the site in publish.
func readSearchManifest(t *testing.T, publish string) searchManifest {
	t.Helper()
	var m searchManifest
	data, err := os.ReadFile(filepath.Join(publish, "search", "index.json"))
	if err == nil {
		err = json.Unmarshal(data, &m)
	}
	if err != nil {
		t.Fatalf("the search manifest: %v", err)
	}
	return m
}
