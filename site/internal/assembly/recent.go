package assembly

import (
	"cmp"
	"slices"
	"time"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/site/internal/model"
)

// recentLimit is how many pages the front page's "Recently updated" lists.
const recentLimit = 10

// recentlyUpdated is params.docweave.recent: the pages (directory pages
// with a text of their own included) whose content changed most recently,
// newest first, each with its
// title, URL, repository and date. A page's change time comes from the
// saved URLs (publishedURLs): it moves only when the page's content does,
// so the list shows what changed in the last builds, not what was merely
// rebuilt.
func recentlyUpdated(urls []events.PublishedURL, facts map[string]*model.UnitFacts) []map[string]any {
	titles := map[string]string{}
	for _, f := range facts {
		for _, p := range f.Pages {
			titles[p.URL] = p.Title
		}
	}
	var pages []events.PublishedURL
	for _, u := range urls {
		if _, ok := titles[u.URL]; ok && !u.Changed.IsZero() {
			pages = append(pages, u)
		}
	}
	slices.SortStableFunc(pages, func(a, b events.PublishedURL) int {
		if c := b.Changed.Compare(a.Changed); c != 0 {
			return c
		}
		return cmp.Compare(a.URL, b.URL)
	})
	out := []map[string]any{}
	for _, p := range pages[:min(len(pages), recentLimit)] {
		out = append(out, map[string]any{
			"title": titles[p.URL], "url": p.URL, "repository": p.Repository,
			"datetime": p.Changed.UTC().Format(time.RFC3339), "date": p.Changed.UTC().Format("2 January 2006"),
		})
	}
	return out
}
