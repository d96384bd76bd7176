package browsertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site"
)

// renderRepositories renders a site of n repositories of two pages each,
// with names and descriptions of every length a portal meets (one name a
// single unbroken word of 60 characters), and returns the publish
// directory.
func renderRepositories(t *testing.T, n int) string {
	t.Helper()
	project := filepath.Join(t.TempDir(), "project")
	var repos []site.Repository
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("service-%03d", i)
		switch i % 7 {
		case 3:
			name = fmt.Sprintf("platform-observability-collector-%03d", i)
		case 5:
			name = fmt.Sprintf("averyveryverylongrepositorynamewithoutanybreakingpoints%03d", i)
		}
		repo := site.Repository{Name: name, ContentPath: name, Updated: time.Date(2026, 11, 1+i%25, 9, 0, 0, 0, time.UTC)}
		if i%2 == 0 {
			repo.Description = strings.Repeat("Handles the requests of the payment flow. ", 1+i%4)
		}
		repos = append(repos, repo)
		for file, text := range map[string]string{
			"_index.md":      fmt.Sprintf("# %s\n\nThe documentation of %s, its operation and its interfaces.\n", name, name),
			"guide/start.md": "# Getting started\n\nInstall it, then run it.\n",
		} {
			p := filepath.Join(project, "content", name, filepath.FromSlash(file))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	publish := filepath.Join(t.TempDir(), "public")
	logs := &bytes.Buffer{}
	if _, err := site.Render(context.Background(), site.Options{
		ProjectDir:   project,
		PublishDir:   publish,
		Generator:    config.Generator{Title: "Portal", Description: "Every team's documentation.", BaseURL: "/"},
		Repositories: repos,
		Logger:       zerolog.New(logs),
	}); err != nil {
		t.Fatalf("render %d repositories: %v\n%s", n, err, logs)
	}
	return publish
}

// cardLayout measures the front page's cards: how many, how many columns,
// the narrowest and widest card, the list's width, and whether any two
// cards overlap.
const cardLayout = `(() => {
	const cards = Array.from(document.querySelectorAll(".repository-card")).map(c => c.getBoundingClientRect());
	const list = document.querySelector(".repositories").getBoundingClientRect();
	const lefts = new Set(cards.map(r => Math.round(r.left)));
	let overlap = false;
	for (let i = 0; i < cards.length && !overlap; i++) {
		for (let j = i + 1; j < Math.min(cards.length, i + 8); j++) {
			const a = cards[i], b = cards[j];
			if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) { overlap = true; break; }
		}
	}
	return JSON.stringify({cards: cards.length, columns: lefts.size, narrowest: Math.min(...cards.map(r => r.width)),
		widest: Math.max(...cards.map(r => r.width)), list: list.width, overlap,
		scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth});
})()`

// TestFrontPageWithOneAndTwoHundredRepositories: the front page looks
// right with one repository and with two hundred, on a desktop and on a
// phone: every card shown, none stretched across the page, no two
// overlapping, one column on a phone and at least three on a desktop, no
// sideways scrolling, no serious accessibility finding, and with two
// hundred a filter that finds repositories.
func TestFrontPageWithOneAndTwoHundredRepositories(t *testing.T) {
	sites := map[int]string{}
	for _, n := range []int{1, 200} { // before the browser's clock starts
		sites[n] = serveSite(t, renderRepositories(t, n), "/")
	}
	axe := loadAxe(t)
	ctx := newBrowser(t)
	p := page{t, ctx}
	for _, n := range []int{1, 200} {
		root := sites[n]
		for _, width := range []struct {
			name string
			w, h int64
		}{{"desktop", 1280, 860}, {"phone", 390, 844}} {
			what := fmt.Sprintf("%d repositories on a %s", n, width.name)
			p.do("set the window to "+width.name, chromedp.EmulateViewport(width.w, width.h))
			p.open(root + "/")
			var got struct {
				Cards, Columns                       int
				Narrowest, Widest, List, ScrollWidth float64
				InnerWidth                           float64
				Overlap                              bool
			}
			if err := json.Unmarshal([]byte(p.eval(cardLayout)), &got); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			t.Logf("%s: %+v", what, got)
			if got.Cards != n {
				t.Errorf("%s: %d cards", what, got.Cards)
			}
			if got.ScrollWidth > got.InnerWidth {
				t.Errorf("%s: the page scrolls sideways (%v wide in %v)", what, got.ScrollWidth, got.InnerWidth)
			}
			if got.Overlap {
				t.Errorf("%s: cards overlap", what)
			}
			if got.Widest-got.Narrowest > 1 {
				t.Errorf("%s: cards of different widths (%v to %v)", what, got.Narrowest, got.Widest)
			}
			switch {
			case width.name == "phone" && (got.Columns != 1 || got.Widest < got.List-1):
				t.Errorf("%s: %d columns, cards %v wide in a list of %v; want one column across", what, got.Columns, got.Widest, got.List)
			case width.name == "desktop" && got.Widest > got.List/2:
				t.Errorf("%s: a card %v wide in a list of %v: stretched across the page", what, got.Widest, got.List)
			case width.name == "desktop" && n == 200 && got.Columns < 3:
				t.Errorf("%s: %d columns for 200 cards", what, got.Columns)
			}
			checkAccessibility(ctx, t, axe, what)
			p.screenshot(fmt.Sprintf("front-%d-%s", n, width.name))
			filter := p.eval(`String(!!document.querySelector(".repository-filter:not([hidden])"))`)
			if want := fmt.Sprint(n > 12); filter != want {
				t.Errorf("%s: a filter is shown: %s, want %s", what, filter, want)
			}
		}
	}

	// Two hundred repositories: the filter finds the observability ones
	// (every seventh, from the fourth: 29) and says so.
	p.do("filter", chromedp.SendKeys(`#dw-repository-filter`, "Observability collector"))
	p.waitFor(`document.querySelector(".repository-filter-status").textContent === "29 of 200 repositories"`, "the filter's count")
	if shown := p.number(`Array.from(document.querySelectorAll(".repository-card")).filter(c => c.offsetParent !== null).length`); shown != 29 {
		t.Errorf("the filter shows %v cards, want 29", shown)
	}
	checkAccessibility(ctx, t, axe, "the repository filter in use")
	p.screenshot("front-200-filtered")
	p.do("widen the window", chromedp.EmulateViewport(1280, 860))

	// Without scripts the filter could do nothing: it stays hidden, and
	// every card is shown.
	if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	p.do("open the front page without scripts", chromedp.Navigate(sites[200]+"/"), chromedp.WaitVisible(`.repository-card`))
	if ready := p.eval(`String(document.documentElement.dataset.docweaveReady)`); ready == "true" {
		t.Fatal("the theme's script ran although scripts are disabled")
	}
	if shown := p.eval(`String(document.querySelector(".repository-filter").offsetParent !== null)`); shown != "false" {
		t.Error("without scripts the repository filter is shown")
	}
	if shown := p.number(`Array.from(document.querySelectorAll(".repository-card")).filter(c => c.offsetParent !== null).length`); shown != 200 {
		t.Errorf("without scripts %v cards are shown, want 200", shown)
	}
}
