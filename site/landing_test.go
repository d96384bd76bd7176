package site

import (
	"strings"
	"testing"
)

// A section's page lists its pages with what each is about: the front
// matter description, else the first paragraph; a folder without either
// shows the names of its first pages. No slash marks a folder. The trail
// starts at the repository, named as the menu names it, even when its
// root page is titled with a slogan.
func TestLandingPagesReadLikeATableOfContents(t *testing.T) {
	_, tree := renderOneRepository(t, "kite", map[string]string{
		"content/kite/_index.md":           "---\ntitle: Soar above the rooftops, fast\n---\nWelcome aboard.\n",
		"content/kite/basics/_index.md":    "---\ntitle: Kite basics\nweight: 1\n---\n",
		"content/kite/basics/lines.md":     "---\ntitle: Lines\ndescription: Which string to buy, and why braided is worth it.\nweight: 1\n---\nBody text.\n",
		"content/kite/basics/launching.md": "---\ntitle: Launching\nweight: 2\n---\nStand with your back to the wind. Then let go.\n\nSecond paragraph.\n",
		"content/kite/tricks/loop.md":      "# The loop\n\nPull the left line hard.\n",
		"content/kite/tricks/stall.md":     "# The stall\n",
	})
	basics := tree["docs/kite/basics/index.html"]
	for _, want := range []string{
		`<a href="/docs/kite/basics/lines/">Lines</a>` + "\n" + `<p class="children-description">Which string to buy, and why braided is worth it.</p>`,
		`<a href="/docs/kite/basics/launching/">Launching</a>` + "\n" + `<p class="children-description">Stand with your back to the wind. Then let go.</p>`,
		"<ol>\n<li><a href=\"/docs/kite/\">kite</a></li>\n<li><span aria-current=\"page\">Kite basics</span></li>",
	} {
		if !strings.Contains(basics, want) {
			t.Errorf("the section page lacks\n%s\ngot:\n%s", want, between(basics, "<main", "</main>"))
		}
	}
	root := tree["docs/kite/index.html"]
	if want := `<a href="/docs/kite/tricks/">Tricks</a>` + "\n" + `<p class="children-description children-contents">The loop · The stall</p>`; !strings.Contains(root, want) {
		t.Errorf("the root page lacks\n%s\ngot:\n%s", want, between(root, "<main", "</main>"))
	}
	if !strings.Contains(root, "<h1>Soar above the rooftops, fast</h1>") || strings.Contains(root, "breadcrumbs") {
		t.Errorf("the repository's root page is not titled by its own page, or has a trail:\n%s", between(root, "<main", "</main>"))
	}
	if strings.Contains(tree["docs/kite/tricks/loop/index.html"], "Soar above") {
		t.Error("the root page's title leaks into the trail of a page")
	}
}
