package site

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// renderedUnit renders one unit of repos from files (slash paths below
// content/) and returns it ready for an assembly.
func renderedUnit(t *testing.T, repos []Repository, unit string, files map[string]string) AssembledUnit {
	t.Helper()
	project := filepath.Join(t.TempDir(), "project")
	writeFiles(t, project, files)
	published := filepath.Join(t.TempDir(), "public")
	res, err := RenderUnit(context.Background(), UnitOptions{ProjectDir: project, PublishDir: published,
		Generator: fixtureGenerator(), Repositories: repos, Unit: unit, Logger: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	return AssembledUnit{Path: unit, ID: unit + "-1", Facts: res.Facts, Search: res.Search,
		Place: func(_ context.Context, to string) error { return linkTree(published, to) }}
}

func assembleUnits(t *testing.T, repos []Repository, units ...AssembledUnit) (AssembleResult, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "site")
	res, err := Assemble(context.Background(), AssembleOptions{WorkDir: t.TempDir(), PublishDir: dir,
		Generator: fixtureGenerator(), Repositories: repos, Units: units, Logger: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	return res, dir
}

// Issue 15: the site ships one redirect map listing every alias Hugo got,
// sorted, one "from to 301" line each; Hugo's redirect pages stay.
func TestTheRedirectMapListsEveryAlias(t *testing.T) {
	repos := []Repository{{Name: "gb", ContentPath: "gb", DocRoots: []string{"docs"}}}
	unit := renderedUnit(t, repos, "gb", map[string]string{
		"content/gb/_index.md":      "# Home\n",
		"content/gb/guide/setup.md": "---\ntitle: Setup\naliases: [/about/, old-setup/]\nurl: /install\n---\nSet it up.\n",
		"content/gb/faq.md":         "---\ntitle: FAQ\naliases: [/questions.html]\n---\nAsk.\n",
	})
	res, dir := assembleUnits(t, repos, unit)
	data, err := os.ReadFile(filepath.Join(dir, RedirectsFile))
	if err != nil {
		t.Fatal(err)
	}
	want := "/docs/gb/about/ /docs/gb/guide/setup/ 301\n" +
		"/docs/gb/guide/old-setup/ /docs/gb/guide/setup/ 301\n" +
		"/docs/gb/install/ /docs/gb/guide/setup/ 301\n" +
		"/docs/gb/questions.html /docs/gb/faq/ 301\n"
	if string(data) != want {
		t.Errorf("%s:\n%s\nwant:\n%s", RedirectsFile, data, want)
	}
	if res.Redirects != 4 || len(res.Conflicts) != 0 {
		t.Errorf("redirects %d, conflicts %v", res.Redirects, res.Conflicts)
	}
	page, err := os.ReadFile(filepath.Join(dir, "docs", "gb", "about", "index.html"))
	if err != nil || !strings.Contains(string(page), `http-equiv="refresh"`) {
		t.Errorf("Hugo's redirect page is gone: %v\n%s", err, page)
	}
	found := false
	for _, f := range res.Placed.FileHashes() {
		found = found || f.Rel == RedirectsFile
	}
	if !found {
		t.Error("the placed site does not list the redirect map")
	}
}

// Issue 15: two repositories never claim the same URL: an alias of one
// that lands on a page of another is a conflict naming both, and the
// first in configuration order keeps the URL. (Content paths of a valid
// configuration do not nest, so the claims are made from facts here; the
// moved pages of TestMovedPages... conflict through real builds.)
func TestTwoRepositoriesNeverClaimOneURL(t *testing.T) {
	guide := Repository{Name: "guide", ContentPath: "guide"}
	extra := Repository{Name: "extra", ContentPath: "guide/extra"}
	facts := map[string]*unitFacts{
		"guide": {Unit: "guide", Pages: []pageFact{
			{Path: "", URL: "/docs/guide/", File: "docs/guide/_index.md"},
			{Path: "/start", URL: "/docs/guide/start/", File: "docs/guide/start.md", Aliases: []string{"/docs/guide/extra/intro/", "/docs/guide/begin/"}},
		}},
		"guide/extra": {Unit: "guide/extra", Pages: []pageFact{
			{Path: "/intro", URL: "/docs/guide/extra/intro/", File: "docs/guide/extra/intro.md"},
		}},
	}
	for _, tc := range []struct {
		name          string
		repos         []Repository
		winner, loser URLClaim
		inMap         bool
	}{
		{"alias first", []Repository{guide, extra},
			URLClaim{Repository: "guide", File: "start.md", Kind: "alias"}, URLClaim{Repository: "extra", File: "intro.md", Kind: "page"}, true},
		{"page first", []Repository{extra, guide},
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
