package site

import (
	"testing"

	"github.com/docweave/docweave/config"
)

// TestUnitAddressCoversWhatPagesShow: the address changes with the tree,
// the settings and what pages show of the rest of the site, and with
// nothing else — not the commits, which no page shows.
func TestUnitAddressCoversWhatPagesShow(t *testing.T) {
	g := fixtureGenerator()
	repos := versionedRepos()
	base := UnitAddress(g, repos, "gamma/main", "sha256:tree")
	if len(base) != 64 {
		t.Fatalf("address %q", base)
	}
	if again := UnitAddress(fixtureGenerator(), versionedRepos(), "gamma/main", "sha256:tree"); again != base {
		t.Fatal("the same inputs gave another address")
	}
	changed := map[string]string{}
	changed["tree"] = UnitAddress(g, repos, "gamma/main", "sha256:other")
	changed["unit"] = UnitAddress(g, repos, "gamma/v1.1.0", "sha256:tree")
	g2 := fixtureGenerator()
	g2.Title = "Other"
	changed["title"] = UnitAddress(g2, repos, "gamma/main", "sha256:tree")
	g3 := fixtureGenerator()
	g3.Params = map[string]any{"themeVariant": "dark"}
	changed["params"] = UnitAddress(g3, repos, "gamma/main", "sha256:tree")
	g4 := fixtureGenerator()
	g4.Taxonomies = map[string]string{"tag": "tags"}
	changed["taxonomies"] = UnitAddress(g4, repos, "gamma/main", "sha256:tree")
	more := append(versionedRepos(), Repository{Name: "epsilon", ContentPath: "epsilon"})
	changed["another repository"] = UnitAddress(g, more, "gamma/main", "sha256:tree")
	fewer := versionedRepos()
	fewer[0].Versions = fewer[0].Versions[:2]
	changed["a version gone"] = UnitAddress(g, fewer, "gamma/main", "sha256:tree")
	edit := versionedRepos()
	edit[1].EditURL = ""
	changed["another repository's edit links"] = UnitAddress(g, edit, "gamma/main", "sha256:tree")
	for what, addr := range changed {
		if addr == base {
			t.Errorf("changing the %s kept the address", what)
		}
	}
	commits := versionedRepos()
	for i := range commits[0].Versions {
		commits[0].Versions[i].Commit = "ffffffffffffffffffffffffffffffffffffffff"
	}
	if UnitAddress(g, commits, "gamma/main", "sha256:tree") != base {
		t.Error("other commits with the same trees changed the address")
	}
	var zero config.Generator
	if UnitAddress(zero, nil, "x", "sha256:tree") == UnitAddress(zero, nil, "x", "sha256:tree2") {
		t.Error("the tree is not part of the address")
	}
}
