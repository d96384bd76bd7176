package finish

import (
	"fmt"
	"strings"

	"github.com/docweave/docweave/internal/words"
	"github.com/docweave/docweave/report"
)

// markEmptyRepositories finds the repositories (or versions) that were
// acquired and rendered but gave no page — a path that matches nothing,
// or documentation without a Markdown page — and makes each an error of
// the report (NO_PAGES), counted in EmptyRepositories, so the build is
// partial: a misspelt path must not pass for "success — 0 pages". paths
// are the configured documentation roots by repository name, for the
// message.
func markEmptyRepositories(rep *report.Report, paths map[string][]string) {
	for _, r := range rep.Repositories {
		if r.Status == "failed" || r.Render == nil || r.Render.Outcome == report.RenderFailed || r.Render.Pages > 0 {
			continue
		}
		rep.EmptyRepositories++
		roots := "its documentation roots"
		if p := paths[r.Name]; len(p) > 0 {
			roots = "paths " + strings.Join(quoteAll(p), ", ")
		}
		rep.Issues = append(rep.Issues, report.Issue{
			Code: report.CodeNoPages, Severity: report.SeverityError, Stage: Name,
			Repository: r.Name, Version: r.Version,
			Message: fmt.Sprintf("no page: %s gave no Markdown page (%s); the build is partial until the paths are corrected or the repository is removed", roots, words.Plural(r.DocFiles, "documentation file")),
		})
	}
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
