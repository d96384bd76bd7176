package finish

import (
	"testing"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/report"
)

// build.broken_links decides what a missing fragment makes of the build:
// a warning and success with warn (the default), an error and a partial
// build (exit 1) with fail.
func TestBrokenLinksSettingDecidesTheOutcome(t *testing.T) {
	for mode, want := range map[string]string{config.BrokenLinksWarn: report.OutcomeSuccess, config.BrokenLinksFail: report.OutcomePartial} {
		cfg := config.Default()
		cfg.Build.BrokenLinks = mode
		s := &stage{cfg: &cfg}
		rep := s.assemble(&buildstate.BuildState{}, &events.SiteRendered{OK: true}, buildLists{site: []report.Issue{
			{Code: report.CodeLinkFragmentMissing, Severity: report.SeverityWarning, Repository: "kb", Path: "docs/a.md", Message: "line 3: …"}}})
		if rep.Outcome != want {
			t.Errorf("broken_links %s: outcome %s, want %s", mode, rep.Outcome, want)
		}
	}
}
