package events

import "github.com/docweave/docweave/report"

// ReportEntry is the outcome as the build report lists it; url is the
// repository's URL with credentials redacted.
func (o RepoOutcome) ReportEntry(url string) report.Repository {
	status := "ok"
	if o.Failed {
		status = "failed"
	}
	e := report.Repository{
		Name: o.Repository, URL: url, Forge: o.Forge, ContentPath: o.ContentPath,
		Branch: o.Branch, Commit: o.Commit, Status: status, Attempts: o.Attempts,
		DocFiles: o.DocFiles, TreeHash: o.Tree, Reused: o.Reused,
	}
	if o.Version != nil {
		e.Version, e.Ref, e.DefaultVersion = o.Version.Name, o.Version.Ref, o.Version.Default
		e.VersionRank = o.Version.Rank
	}
	return e
}
