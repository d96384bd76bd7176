package render

import (
	"path"
	"strings"

	"github.com/docweave/docweave/docstree"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/site"
)

// siteIssueCodes maps the site package's page issue codes to the build
// report's. They are the same strings; the map keeps the report's codes the
// documented, stable ones even if the site package grows new codes.
var siteIssueCodes = map[string]string{
	site.IssueUnknownShortcode:    report.CodeUnknownShortcode,
	site.IssueRawSyntax:           report.CodeRawSyntax,
	site.IssueShortcodeInvalid:    report.CodeShortcodeInvalid,
	site.IssueFrontMatterInvalid:  report.CodeFrontMatterInvalid,
	site.IssuePageRenderFailed:    report.CodePageRenderFailed,
	site.IssueIndexShadowed:       report.CodeIndexShadowed,
	site.IssueLinkUnresolved:      report.CodeLinkUnresolved,
	site.IssueLinkFragmentMissing: report.CodeLinkFragmentMissing,
	site.IssueToolConfigInvalid:   report.CodeToolConfigInvalid,
	site.IssueIncludeUnresolved:   report.CodeIncludeUnresolved,
	site.IssueXrefDuplicateID:     report.CodeXrefDuplicateID,
}

// repoFiles says where a repository's files are: its content path on the
// site and its documentation roots in the repository.
type repoFiles struct {
	name        string
	version     string // the branch or tag, with versioning
	contentPath string
	roots       []string
}

// pageIssues turns the page problems of a render into build-report
// warnings naming the repository and the file in it.
func pageIssues(issues []site.Issue, repos []repoFiles) []report.Issue {
	out := make([]report.Issue, 0, len(issues))
	for _, is := range issues {
		code, ok := siteIssueCodes[is.Code]
		if !ok {
			code = is.Code
		}
		repo, file := locate(is.Path, repos)
		var name, version string
		if repo != nil {
			name, version = repo.name, repo.version
		}
		// A page left out even with what broke it shown as text is an
		// error: a reader loses it. Every other page problem is a warning.
		severity := report.SeverityWarning
		if code == report.CodePageRenderFailed || code == report.CodeXrefDuplicateID {
			severity = report.SeverityError
		}
		out = append(out, report.Issue{
			Code: code, Severity: severity, Stage: Name,
			Repository: name, Version: version, Path: file, Message: is.Message,
		})
	}
	return out
}

// locate finds the repository whose content path holds contentFile (the
// longest match, as forge-namespaced paths nest) and the file's path in the
// repository: below its documentation root when it has exactly one, else
// relative to its merged documentation roots. Without a match the content
// path is returned as it is.
func locate(contentFile string, repos []repoFiles) (repo *repoFiles, file string) {
	var best *repoFiles
	for i := range repos {
		r := &repos[i]
		if strings.HasPrefix(contentFile, r.contentPath+"/") && (best == nil || len(r.contentPath) > len(best.contentPath)) {
			best = r
		}
	}
	if best == nil {
		return nil, contentFile
	}
	rel := strings.TrimPrefix(contentFile, best.contentPath+"/")
	if carried, ok := strings.CutPrefix(rel, docstree.ToolConfigDir+"/"); ok {
		return best, carried // a tool's configuration, from the repository's root
	}
	if len(best.roots) == 1 {
		if root := path.Clean(strings.Trim(best.roots[0], "/")); root != "." && root != "" {
			rel = path.Join(root, rel)
		}
	}
	return best, rel
}
