package assemble

import (
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/site"
)

// SiteSpec is the render spec a build of cfg with these repository
// outcomes (in configuration order) renders its units with: what a
// preview (package preview) needs to render one repository anew for the
// live site, as the plan would have.
func SiteSpec(cfg *config.Config, outcomes []events.RepoOutcome) site.Spec {
	s := &stage{cfg: cfg}
	return site.Spec{Generator: generatorFor(cfg), Repositories: s.siteRepositories(outcomes)}
}
