package browsertest

import (
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/httpsrv/docs"
)

// TestPreviewInABrowser serves the fixture site as a preview through the
// docs server (/previews/<id>/): its banner names the repository, ref and
// commit at the top of every page, at desktop and phone widths, passes
// axe-core, and a click on a link of the page stays inside the preview.
func TestPreviewInABrowser(t *testing.T) {
	site := renderFixture(t, "/", nil)
	live := t.TempDir()
	const id = "beta-4f1a2b3c4d"
	handler := docs.New(docs.Options{PublicDir: live, Log: zerolog.Nop(), Previews: func(got string) (docs.PreviewSite, bool) {
		if got != id {
			return docs.PreviewSite{}, false
		}
		return docs.PreviewSite{Dir: site, Repository: "beta", Ref: "rewrite-getting-started", Commit: "4f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c", Title: "GitHub pull request #42"}, true
	}})
	root := "http://" + listen(t, handler) + "/previews/" + id
	if err := os.MkdirAll(live, 0o755); err != nil {
		t.Fatal(err)
	}
	axe := loadAxe(t)
	ctx := newBrowser(t)
	p := page{t, ctx}

	p.do("set the window", chromedp.EmulateViewport(1280, 760))
	p.open(root + "/docs/beta/")
	banner := p.text(`.dw-preview-banner`)
	for _, want := range []string{"Preview", "beta at rewrite-getting-started", "commit 4f1a2b3c4d5e", "GitHub pull request #42", "Not the live site."} {
		if !strings.Contains(banner, want) {
			t.Errorf("the banner reads %q, without %q", banner, want)
		}
	}
	if top := p.number(`document.querySelector(".dw-preview-banner").getBoundingClientRect().top`); top != 0 {
		t.Errorf("the banner starts %vpx below the top", top)
	}
	checkAccessibility(ctx, t, axe, "a preview's page")
	p.screenshotTo("preview", "preview.png")

	// A link of the page leads to the preview's page, not the live one.
	href := p.eval(`Array.from(document.querySelectorAll("main a[href^='/']")).map(a => a.getAttribute("href"))[0] || ""`)
	if !strings.HasPrefix(href, "/previews/"+id+"/") {
		t.Fatalf("the page's first rooted link is %q, outside the preview", href)
	}
	p.do("follow a link", chromedp.Click(`main a[href^="/"]`), p.ready())
	if loc := p.location(); !strings.Contains(loc, "/previews/"+id+"/") {
		t.Errorf("the click led to %s, out of the preview", loc)
	}

	p.do("narrow the window", chromedp.EmulateViewport(390, 844))
	p.open(root + "/docs/beta/")
	if w, vw := p.number(`document.querySelector(".dw-preview-banner").scrollWidth`), p.number(`document.documentElement.clientWidth`); w > vw {
		t.Errorf("on a phone the banner is %vpx wide in a %vpx window", w, vw)
	}
	checkAccessibility(ctx, t, axe, "a preview's page on a phone")
	p.screenshotTo("phone-preview", "preview-phone.png")
}
