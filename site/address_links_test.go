package site

import "testing"

// A unit's links may lead into any repository by its forge address or
// its original site's URLs, so changing either, in any repository,
// changes every unit's address; a site without them keeps its addresses.
func TestUnitAddressCoversWhereLinksLead(t *testing.T) {
	g := fixtureGenerator()
	base := UnitAddress(g, versionedRepos(), "gamma/main", "sha256:tree")
	withSite := versionedRepos()
	withSite[len(withSite)-1].OriginalSite = &OriginalSite{URL: "https://old.example/", Paths: map[string]string{"/docs/": "docs/"}}
	withForge := versionedRepos()
	withForge[len(withForge)-1].WebURL = "https://github.com/acme/other"
	for name, repos := range map[string][]Repository{"original site": withSite, "forge address": withForge} {
		if UnitAddress(g, repos, "gamma/main", "sha256:tree") == base {
			t.Errorf("another repository's %s left the address unchanged", name)
		}
	}
}
