package assembly

import (
	"strings"
	"testing"

	"github.com/docweave/docweave/site/internal/model"
)

// Issue 15: two repositories never claim the same URL: an alias of one
// that lands on a page of another is a conflict naming both, and the
// first in configuration order keeps the URL. (Content paths of a valid
// configuration do not nest, so the claims are made from facts here; the
// moved pages of TestMovedPages... conflict through real builds.)
func TestTwoRepositoriesNeverClaimOneURL(t *testing.T) {
	guide := model.Repository{Name: "guide", ContentPath: "guide"}
	extra := model.Repository{Name: "extra", ContentPath: "guide/extra"}
	facts := map[string]*model.UnitFacts{
		"guide": {Unit: "guide", Pages: []model.PageFact{
			{Path: "", URL: "/docs/guide/", File: "docs/guide/_index.md"},
			{Path: "/start", URL: "/docs/guide/start/", File: "docs/guide/start.md", Aliases: []string{"/docs/guide/extra/intro/", "/docs/guide/begin/"}},
		}},
		"guide/extra": {Unit: "guide/extra", Pages: []model.PageFact{
			{Path: "/intro", URL: "/docs/guide/extra/intro/", File: "docs/guide/extra/intro.md"},
		}},
	}
	for _, tc := range []struct {
		name          string
		repos         []model.Repository
		winner, loser URLClaim
		inMap         bool
	}{
		{"alias first", []model.Repository{guide, extra},
			URLClaim{Repository: "guide", File: "start.md", Kind: "alias"}, URLClaim{Repository: "extra", File: "intro.md", Kind: "page"}, true},
		{"page first", []model.Repository{extra, guide},
			URLClaim{Repository: "extra", File: "intro.md", Kind: "page"}, URLClaim{Repository: "guide", File: "start.md", Kind: "alias"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			claims := claimSite(tc.repos, facts, nil)
			if len(claims.conflicts) != 1 {
				t.Fatalf("conflicts: %+v, want one", claims.conflicts)
			}
			c := claims.conflicts[0]
			if c.URL != "/docs/guide/extra/intro/" || c.Winner != tc.winner || c.Loser != tc.loser {
				t.Errorf("conflict %+v, want %v winning over %v", c, tc.winner, tc.loser)
			}
			msg := c.Message()
			for _, want := range []string{"guide", "extra", "start.md", "intro.md"} {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q does not name %s", msg, want)
				}
			}
			m := string(redirectMap(claims.redirects))
			if got := strings.Contains(m, "/docs/guide/extra/intro/ "); got != tc.inMap {
				t.Errorf("alias in the map: %v, want %v:\n%s", got, tc.inMap, m)
			}
			if !strings.Contains(m, "/docs/guide/begin/ /docs/guide/start/ 301\n") {
				t.Errorf("the alias without conflict is missing:\n%s", m)
			}
		})
	}
}
