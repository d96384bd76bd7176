package browsertest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site"
)

// renderLanding renders one repository in our own words whose root page
// is a generated list of folders, one of them named and placed by a
// Docusaurus _category_.json, its pages ordered by sort_rank and labelled
// by nav_title, and returns the publish directory.
func renderLanding(t *testing.T) string {
	t.Helper()
	project := filepath.Join(t.TempDir(), "project")
	files := map[string]string{
		"basics/index.md":          "---\ntitle: Kite basics\nsort_rank: 1\n---\nWhat a first flight needs: a kite, a line and a steady wind.\n",
		"basics/lines.md":          "---\ntitle: Choosing a line\nnav_title: Lines\nsort_rank: 2\ndescription: Which string to buy, and why braided is worth it.\n---\nBody.\n",
		"basics/launching.md":      "---\ntitle: Launching\nsort_rank: 1\n---\nStand with your back to the wind, hold the kite up and let go.\n",
		"basics/landing.md":        "---\ntitle: Landing\nsort_rank: 3\n---\nWalk towards the kite while winding in.\n",
		"zz-wind/_category_.json":  `{"label": "Reading the wind", "position": 2}`,
		"zz-wind/gusts.md":         "# Gusts\n\nShort bursts that lift the kite, then drop it.\n",
		"zz-wind/beaufort.md":      "# The Beaufort scale\n\nTwelve steps from calm to hurricane; kites like three to five.\n",
		"aa-tricks/_category_.yml": "label: Tricks\nposition: 3\n",
		"aa-tricks/loop.md":        "# The loop\n\nPull one line hard and the kite turns a full circle.\n",
		"aa-tricks/stall.md":       "# The stall\n\nLet the kite float motionless at the edge of the wind.\n",
		"aa-tricks/axel.md":        "# The axel\n\nA flat spin, started by a sharp pop of one line.\n",
		"safety.md":                "---\ntitle: Flying safely\nsort_rank: 9\n---\nKeep away from power lines, roads and airports.\n",
	}
	for rel, text := range files {
		p := filepath.Join(project, "content", "kites", filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	publish := filepath.Join(t.TempDir(), "public")
	logs := &bytes.Buffer{}
	if _, err := site.Render(context.Background(), site.Options{
		ProjectDir: project, PublishDir: publish,
		Generator:    config.Generator{Title: "Portal", BaseURL: "/"},
		Repositories: []site.Repository{{Name: "kites", ContentPath: "kites"}},
		Logger:       zerolog.New(logs),
	}); err != nil {
		t.Fatalf("render: %v\n%s", err, logs)
	}
	return publish
}

// TestLandingPageInABrowser: a repository's landing page lists its
// folders in the authors' order with what each holds, no folder marked by
// a trailing slash; a folder's page lists its pages with their
// descriptions under a trail that starts at the repository; no serious
// accessibility finding. Its screenshots are docs/images/landing.png and
// landing-section.png.
func TestLandingPageInABrowser(t *testing.T) {
	root := serveSite(t, renderLanding(t), "/")
	axe := loadAxe(t)
	ctx := newBrowser(t)
	p := page{t, ctx}
	p.do("set the window", chromedp.EmulateViewport(1280, 760))

	p.open(root + "/docs/kites/")
	if got, want := p.eval(`Array.from(document.querySelectorAll("ul.children > li > a")).map(a => a.textContent).join(" | ")`),
		"Kite basics | Reading the wind | Tricks | Flying safely"; got != want {
		t.Errorf("landing lists %q, want %q", got, want)
	}
	if after := p.eval(`getComputedStyle(document.querySelector("ul.children > li.section > a"), "::after").content`); after != "none" && after != "normal" {
		t.Errorf("a folder's name is followed by %s", after)
	}
	if got := p.text(`ul.children > li:nth-child(3) .children-description`); !strings.Contains(got, "The axel") {
		t.Errorf("the Tricks folder's line reads %q, want its pages' names", got)
	}
	checkAccessibility(ctx, t, axe, "the landing page")
	p.screenshotTo("landing", "landing.png")

	p.open(root + "/docs/kites/basics/")
	if got, want := p.eval(`Array.from(document.querySelectorAll("nav.breadcrumbs li")).map(li => li.textContent).join(" › ")`), "kites › Kite basics"; got != want {
		t.Errorf("breadcrumbs %q, want %q", got, want)
	}
	if got, want := p.eval(`Array.from(document.querySelectorAll("ul.children > li > a")).map(a => a.textContent).join(" | ")`), "Launching | Choosing a line | Landing"; got != want {
		t.Errorf("section lists %q, want %q", got, want)
	}
	if got := p.text(`ul.children > li:nth-child(2) .children-description`); got != "Which string to buy, and why braided is worth it." {
		t.Errorf("the description under Choosing a line reads %q", got)
	}
	checkAccessibility(ctx, t, axe, "a section page")
	p.screenshotTo("landing-section", "landing-section.png")
}

// screenshotTo saves a screenshot as screenshot does, and with
// -update-screenshots also as docs/images/<doc>.
func (p page) screenshotTo(name, doc string) {
	p.t.Helper()
	p.screenshot(name)
	if !*updateScreenshots {
		return
	}
	png, err := os.ReadFile(filepath.Join(p.t.ArtifactDir(), name+".png"))
	if err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("..", "..", "docs", "images", doc), png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}
