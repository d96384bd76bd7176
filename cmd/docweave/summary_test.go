package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/report"
)

// The summary a person reads after `docweave build`: counts agree with
// their nouns, a repository with several versions counts once, and an
// issue of the whole build has no stray space before its colon.
func TestBuildSummaryReadsWell(t *testing.T) {
	cfg := config.Default()
	cfg.Output.Directory = "/srv/site"
	cases := []struct {
		name string
		rep  report.Report
		want []string
		not  []string
	}{
		{"one of each", report.Report{BuildID: "b1", Outcome: "success", RenderedPages: 1, ClonedRepositories: 1, DurationMS: 1200, StaticRendered: true},
			[]string{"success — 1 page from 1 of 1 repository in 1.2s"}, []string{"1 pages", "1 repositories"}},
		{"several", report.Report{BuildID: "b2", Outcome: "partial", RenderedPages: 12, ClonedRepositories: 2, FailedRepositories: 1, DurationMS: 500},
			[]string{"12 pages from 2 of 3 repositories in 500ms"}, nil},
		{"versions", report.Report{BuildID: "b3", Outcome: "success", RenderedPages: 9, ClonedRepositories: 3,
			Repositories: []report.Repository{{Name: "product", Version: "main"}, {Name: "product", Version: "v2"}, {Name: "product", Version: "v1"}},
			Versions:     []report.RepositoryVersions{{Repository: "product", Built: []string{"main", "v2", "v1"}}}},
			[]string{"9 pages from 1 repository (3 of 3 versions)"}, []string{"3 of 3 repositories"}},
		{"whole-build issue", report.Report{BuildID: "b4", Outcome: "failed", Issues: []report.Issue{
			{Code: report.CodeRenderFailed, Severity: report.SeverityError, Message: "no repository produced documentation"},
			{Code: report.CodeCloneAuth, Severity: report.SeverityError, Repository: "api", Version: "v1", Message: "refused"}}},
			[]string{"  RENDER_FAILED: no repository produced documentation", "  CLONE_AUTH api@v1: refused"}, []string{"RENDER_FAILED :"}},
		{"warnings", report.Report{BuildID: "b5", Outcome: "partial", Issues: []report.Issue{
			{Code: report.CodeDocsPathMissing, Severity: report.SeverityWarning, Repository: "api", Path: "doc", Message: "documentation root \"doc\" is not a directory in the repository"},
			{Code: report.CodeUnknownShortcode, Severity: report.SeverityWarning, Repository: "api", Path: "a.md", Message: "line 3: shortcode"},
			{Code: report.CodeUnknownShortcode, Severity: report.SeverityWarning, Repository: "api", Path: "b.md", Message: "line 9: shortcode"},
			{Code: report.CodeNoPages, Severity: report.SeverityError, Repository: "api", Message: "no page"}}},
			[]string{"  NO_PAGES api: no page", "  warning DOCS_PATH_MISSING api doc: documentation root \"doc\" is not", "  3 warnings in the report: UNKNOWN_SHORTCODE 2, DOCS_PATH_MISSING 1"},
			[]string{"line 3: shortcode"}},
		{"readers", report.Report{BuildID: "b6", Outcome: "success", Repositories: []report.Repository{
			{Name: "a", Reader: &report.ReaderCounts{DeadLinks: 1}},
			{Name: "b", Version: "v1", Reader: &report.ReaderCounts{RawSyntaxPages: 2, RawSyntax: map[string]int{"alert": 1, "tab": 2}, ImagesNotPublished: 3}},
			{Name: "c", Reader: &report.ReaderCounts{ImagesNotPublished: 1}},
			{Name: "d", Reader: &report.ReaderCounts{DeadLinks: 4}},
			{Name: "clean", Reader: &report.ReaderCounts{}}}},
			[]string{"  readers meet: b@v1: raw syntax on 2 pages (tab 2, alert 1), 3 images not published; c: 1 image not published; d: 4 dead links; and 1 repository more (repositories[].reader in the report)"},
			[]string{"clean", "1 dead links"}},
	}
	for _, tc := range cases {
		var out bytes.Buffer
		printSummary(&out, &cfg, &tc.rep)
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: summary lacks %q:\n%s", tc.name, w, out.String())
			}
		}
		for _, n := range tc.not {
			if strings.Contains(out.String(), n) {
				t.Errorf("%s: summary says %q:\n%s", tc.name, n, out.String())
			}
		}
	}
}
