package docstree

import (
	"slices"
	"testing"

	"github.com/docweave/docweave/config"
)

// A page's link to a URL of the repository's original site names the
// file of the folder that site published under the longest matching
// prefix, absolute or rooted: that file is a referenced file. Another
// site's URL, and a prefix the site does not declare, name none.
func TestOriginalSiteLinksAreReferencedFiles(t *testing.T) {
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{
		"docs/tour.md": "# Tour\n\n![map](/pictures/map.png) ![plan](https://handbook.example/pictures/floors/plan.png)\n" +
			"![logo](https://elsewhere.example/pictures/logo.png) [news](/news/today.pdf) [page](/guide/tour/)\n",
	})
	site := config.OriginalSite{URL: "https://handbook.example/", Paths: map[string]string{
		"/pictures/": "static/pictures/", "/pictures/floors/": "building/floors", "/guide/": "docs/"}}
	got := Referenced(repo, []string{"docs"}, Policy{OriginalSite: site})
	for _, want := range []string{"static/pictures/map.png", "building/floors/plan.png"} {
		if !slices.Contains(got, want) {
			t.Errorf("referenced %v lacks %s", got, want)
		}
	}
	for _, not := range []string{"static/pictures/logo.png", "docs/guide/tour", "static/pictures/floors/plan.png"} {
		if slices.Contains(got, not) {
			t.Errorf("referenced %v holds %s", got, not)
		}
	}
}
