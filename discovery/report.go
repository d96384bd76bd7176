package discovery

import (
	"fmt"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/report"
)

// ReportSection is the build report's view of discovery: one entry per
// configured forge, and an issue (FORGE_LIST_FAILED) for each forge whose
// latest scan failed — the build then used its last discovered
// repositories. Nothing without forges.
func ReportSection(cfg *config.Config) ([]report.Forge, []report.Issue) {
	var forges []report.Forge
	var issues []report.Issue
	for _, st := range cfg.ForgeStatuses() {
		f := report.Forge{
			Name: st.Name, Type: st.Type, Status: report.ForgeOK, Repositories: st.Repositories,
			Listed: st.Listed, Requests: st.Requests, ScannedAt: st.ScannedAt, ListedAt: st.ListedAt, Warnings: st.Warnings,
		}
		if !st.OK {
			f.Status, f.Error = report.ForgeFailed, st.Error
			kept := "no repositories were discovered from it yet"
			if !st.ListedAt.IsZero() {
				kept = fmt.Sprintf("its %d repositories of the scan of %s are built", st.Repositories, st.ListedAt.Format("2006-01-02 15:04:05Z07:00"))
			}
			issues = append(issues, report.Issue{
				Code: report.CodeForgeListFailed, Severity: report.SeverityError, Stage: "discover", Path: st.Name,
				Message: fmt.Sprintf("forge %s could not be listed (%s); %s", st.Name, st.Error, kept), Transient: true,
			})
		}
		forges = append(forges, f)
	}
	return forges, issues
}
