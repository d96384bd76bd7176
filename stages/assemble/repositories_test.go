package assemble

import (
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
)

func TestSiteRepositoriesGatherVersionsUnderTheirRepository(t *testing.T) {
	cfg := config.Default()
	cfg.Repositories = []config.Repository{
		{Name: "product", URL: "https://github.com/acme/product.git"},
		{Name: "plain", URL: "https://github.com/acme/plain.git"},
	}
	s := &stage{cfg: &cfg}
	version := func(name, slug string, rank int, tag, def bool) *events.Version {
		return &events.Version{Name: name, Slug: slug, Rank: rank, Tag: tag, Default: def}
	}
	outcomes := []events.RepoOutcome{
		{Repository: "plain", ContentPath: "plain", Branch: "main", Tree: "t"},
		// The default version failed: the newest that built stands in.
		{Repository: "product", ContentPath: "product/main", Version: version("main", "main", 0, false, true), Failed: true},
		{Repository: "product", ContentPath: "product/v1.0.0", Version: version("v1.0.0", "v1.0.0", 2, true, false), Commit: "c1", Tree: "t"},
		{Repository: "product", ContentPath: "product/feature-x", Version: version("feature/x", "feature-x", 3, false, false), Tree: "t"},
		{Repository: "product", ContentPath: "product/v1.1.0", Version: version("v1.1.0", "v1.1.0", 1, true, false), Tree: "t"},
	}
	repos := s.siteRepositories(outcomes)
	if len(repos) != 2 || repos[0].Name != "plain" || len(repos[0].Versions) != 0 || repos[0].EditURL == "" {
		t.Fatalf("plain repository %+v", repos)
	}
	p := repos[1]
	if p.ContentPath != "product" || len(p.Versions) != 3 {
		t.Fatalf("product %+v", p)
	}
	var names []string
	for _, v := range p.Versions {
		names = append(names, v.Name)
	}
	if names[0] != "v1.1.0" || names[1] != "v1.0.0" || names[2] != "feature/x" || !p.Versions[0].Default || p.Versions[1].Default {
		t.Fatalf("versions in order %v, default %+v", names, p.Versions)
	}
	if p.Versions[0].EditURL != "" || p.Versions[2].EditURL == "" {
		t.Fatalf("edit links: tags must have none, branches one: %+v", p.Versions)
	}
}

// The site's repositories carry what links across repositories need
// (package site): the forge address and the original site, versioned or
// not; none when the configuration has none.
func TestSiteRepositoriesCarryLinkSources(t *testing.T) {
	cfg := config.Default()
	cfg.Repositories = []config.Repository{
		{Name: "handbook", URL: "git@github.com:acme/handbook.git",
			OriginalSite: config.OriginalSite{URL: "https://handbook.example/", Paths: map[string]string{"/guide/": "docs/"}}},
		{Name: "engine", URL: "file:///srv/engine.git"},
	}
	s := &stage{cfg: &cfg}
	repos := s.siteRepositories([]events.RepoOutcome{
		{Repository: "handbook", ContentPath: "handbook/main", Version: &events.Version{Name: "main", Slug: "main", Default: true}, Tree: "t"},
		{Repository: "engine", ContentPath: "engine", Branch: "main", Tree: "t"},
	})
	h, e := repos[0], repos[1]
	if h.WebURL != "https://github.com/acme/handbook" || h.OriginalSite == nil || h.OriginalSite.Paths["/guide/"] != "docs/" {
		t.Errorf("handbook: web %q, original site %+v", h.WebURL, h.OriginalSite)
	}
	if e.WebURL != "" || e.OriginalSite != nil {
		t.Errorf("engine: web %q, original site %+v; want none", e.WebURL, e.OriginalSite)
	}
}
