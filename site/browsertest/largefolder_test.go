package browsertest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLargeFolderInABrowser: a folder of 250 pages. A page's menu lists
// the window of the folder holding it (at most 100 links of the folder)
// and "All 250 pages in …", which opens the folder's listing at the page
// showing that window; the listing's page links lead, by keyboard too, to
// its last page, where the folder's last page is listed. axe-core finds
// nothing serious on the page or the listing, on a desktop and a phone.
func TestLargeFolderInABrowser(t *testing.T) {
	axe := loadAxe(t)
	pages := map[string]string{}
	for i := range 250 {
		pages[fmt.Sprintf("alpha/many/p%03d.md", i)] = fmt.Sprintf("# Item %03d\n\nOne line.\n", i)
	}
	publish := renderFixtureWith(t, "", nil, pages)
	root := serveSite(t, publish, "/")
	ctx := newBrowser(t)
	p := page{t, ctx}

	p.open(root + "/docs/alpha/many/p150/")
	if n := p.number(`document.querySelectorAll('#dw-menu li:not(.menu-all) > a[href^="/docs/alpha/many/p"]').length`); n != 100 {
		t.Errorf("the menu links %v pages of the folder, want its window of 100", n)
	}
	if got := p.text(`#dw-menu a[aria-current="page"]`); got != "Item 150" {
		t.Errorf("current menu entry %q", got)
	}
	all := p.text(`#dw-menu .menu-all a`)
	if !strings.HasPrefix(all, "All 250 pages in") {
		t.Fatalf("the menu's link to the whole folder reads %q", all)
	}
	p.do("follow "+all, chromedp.Click(`#dw-menu .menu-all a`), p.ready())
	if got := p.location(); !strings.HasSuffix(got, "/docs/alpha/many/page/2/") {
		t.Fatalf("the link led to %s, want the listing's second page", got)
	}
	if got := p.eval(`document.querySelector('.children').textContent`); !strings.Contains(got, "Item 150") {
		t.Errorf("the listing page lacks the page's entry:\n%s", got)
	}
	for _, width := range []struct {
		name string
		w, h int64
	}{{"desktop", 1280, 860}, {"phone", 390, 844}} {
		p.do("set the window to "+width.name, chromedp.EmulateViewport(width.w, width.h))
		p.open(root + "/docs/alpha/many/page/2/")
		checkAccessibility(ctx, t, axe, "a listing page ("+width.name+")")
		p.open(root + "/docs/alpha/many/p150/")
		checkAccessibility(ctx, t, axe, "a page of a large folder ("+width.name+")")
	}

	// By keyboard: focus the listing's "Last" link and press Enter.
	p.open(root + "/docs/alpha/many/")
	p.eval(`(() => { [...document.querySelectorAll('.pagination a')].find(a => a.textContent.startsWith('Last')).focus(); return ""; })()`)
	p.do("press Enter on Last", chromedp.KeyEvent("\r"), p.ready())
	if got := p.location(); !strings.HasSuffix(got, "/docs/alpha/many/page/3/") {
		t.Fatalf("Last led to %s", got)
	}
	if got := p.eval(`document.querySelector('.children').textContent`); !strings.Contains(got, "Item 249") {
		t.Errorf("the last listing page lacks the folder's last page:\n%s", got)
	}
}
