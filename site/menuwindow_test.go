package site

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/docweave/docweave/site/internal/hugobuild"
)

// A folder of more pages than hugobuild.MenuWindow: a page's menu lists the window
// of its folder holding it, plus a link to the folder's listing at the
// listing page showing that window; the listing is paginated by the same
// size and, page after page, links every page of the folder once. A
// folder's pages in every menu made the site grow with the square of the
// folder (one folder of 9,990 pages: 470 KB a page).
func TestMenuOfALargeFolderIsAWindowAndItsListingPaginates(t *testing.T) {
	const n = 2*hugobuild.MenuWindow + 30
	files := map[string]string{"content/big/index.md": "# Big\n", "content/big/sub/a.md": "# A\n"}
	for i := range n {
		files[fmt.Sprintf("content/big/many/p%04d.md", i)] = fmt.Sprintf("# Page %d\n", i)
	}
	_, tree := renderOneRepository(t, "big", files)

	links := regexp.MustCompile(`href="(/docs/big/many/p\d{4}/)"`)
	for _, c := range []struct {
		page        int
		first, last int
		all         string
	}{
		{0, 0, hugobuild.MenuWindow - 1, `/docs/big/many/`},
		{hugobuild.MenuWindow + 7, hugobuild.MenuWindow, 2*hugobuild.MenuWindow - 1, `/docs/big/many/page/2/`},
		{n - 1, 2 * hugobuild.MenuWindow, n - 1, `/docs/big/many/page/3/`},
	} {
		html := tree[fmt.Sprintf("docs/big/many/p%04d/index.html", c.page)]
		menu := between(html, `<nav id="dw-menu"`, "</nav>")
		got := links.FindAllStringSubmatch(menu, -1)
		if len(got) != c.last-c.first+1 || got[0][1] != fmt.Sprintf("/docs/big/many/p%04d/", c.first) || got[len(got)-1][1] != fmt.Sprintf("/docs/big/many/p%04d/", c.last) {
			t.Errorf("page %d: menu lists %d pages of the folder, want p%04d…p%04d:\n%s", c.page, len(got), c.first, c.last, menu)
		}
		if want := fmt.Sprintf(`<a href="%s">All %d pages in Many</a>`, c.all, n); !strings.Contains(menu, want) {
			t.Errorf("page %d: menu lacks %s:\n%s", c.page, want, menu)
		}
		if want := fmt.Sprintf(`href="/docs/big/many/p%04d/" aria-current="page"`, c.page); !strings.Contains(menu, want) || strings.Count(menu, "aria-current") != 1 {
			t.Errorf("page %d: menu does not mark the page (only):\n%s", c.page, menu)
		}
		// The way up stays: the repository's other entries.
		if !strings.Contains(menu, `href="/docs/big/sub/"`) {
			t.Errorf("page %d: menu lost the folder's siblings:\n%s", c.page, menu)
		}
	}

	seen := map[string]int{}
	for i, path := range []string{"docs/big/many/index.html", "docs/big/many/page/2/index.html", "docs/big/many/page/3/index.html"} {
		html := tree[path]
		list := between(html, `<ul class="children">`, "</ul>")
		for _, m := range links.FindAllStringSubmatch(list, -1) {
			seen[m[1]]++
		}
		nav := between(html, `<nav class="pagination"`, "</nav>")
		if want := fmt.Sprintf("Page %d of 3", i+1); !strings.Contains(nav, want) {
			t.Errorf("%s: pagination lacks %q:\n%s", path, want, nav)
		}
		if strings.Count(nav, `aria-current="page"`) != 1 {
			t.Errorf("%s: pagination marks no single current page:\n%s", path, nav)
		}
	}
	if len(seen) != n {
		t.Errorf("the listing's pages link %d pages of the folder, want %d", len(seen), n)
	}
	for url, k := range seen {
		if k != 1 {
			t.Errorf("%s listed %d times", url, k)
		}
	}
}
