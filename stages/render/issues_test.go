package render

import (
	"testing"

	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/site"
)

func TestPageIssuesNameTheRepositoryAndItsFile(t *testing.T) {
	repos := []repoFiles{
		{name: "tools", contentPath: "github/tools", roots: []string{"docs"}},
		{name: "tools-extra", contentPath: "github/tools-extra", roots: []string{"docs", "more"}},
		{name: "root", contentPath: "root", roots: []string{"."}},
	}
	got := pageIssues([]site.Issue{
		{Code: site.IssueUnknownShortcode, Path: "github/tools/guide/a.md", Message: "m1"},
		{Code: site.IssuePageRenderFailed, Path: "github/tools-extra/b.md", Message: "m2"},
		{Code: site.IssueFrontMatterInvalid, Path: "root/c.md", Message: "m3"},
		{Code: site.IssueIndexShadowed, Path: "elsewhere/d.md", Message: "m4"},
		{Code: site.IssueToolConfigInvalid, Path: "github/tools/.docweave-repo/mkdocs.yml", Message: "m5"},
	}, repos)
	want := []report.Issue{
		{Code: report.CodeUnknownShortcode, Repository: "tools", Path: "docs/guide/a.md", Message: "m1"},
		{Code: report.CodePageRenderFailed, Repository: "tools-extra", Path: "b.md", Message: "m2"},
		{Code: report.CodeFrontMatterInvalid, Repository: "root", Path: "c.md", Message: "m3"},
		{Code: report.CodeIndexShadowed, Repository: "", Path: "elsewhere/d.md", Message: "m4"},
		// A tool's configuration comes from the repository's root.
		{Code: report.CodeToolConfigInvalid, Repository: "tools", Path: "mkdocs.yml", Message: "m5"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d issues, want %d", len(got), len(want))
	}
	for i, w := range want {
		w.Severity, w.Stage = report.SeverityWarning, Name
		if w.Code == report.CodePageRenderFailed {
			w.Severity = report.SeverityError // a page a reader loses
		}
		if got[i] != w {
			t.Errorf("issue %d = %+v, want %+v", i, got[i], w)
		}
	}
}

func TestEverySitePageIssueCodeIsAReportCode(t *testing.T) {
	for _, code := range []string{site.IssueUnknownShortcode, site.IssueShortcodeInvalid, site.IssueFrontMatterInvalid, site.IssuePageRenderFailed, site.IssueIndexShadowed} {
		if siteIssueCodes[code] != code {
			t.Errorf("site code %s maps to report code %q", code, siteIssueCodes[code])
		}
	}
}
