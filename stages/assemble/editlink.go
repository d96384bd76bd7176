package assemble

import (
	"net/url"
	"path"
	"strings"

	"github.com/docweave/docweave/forge"
	"github.com/docweave/docweave/site"
)

// editURL returns the pattern of the "Edit this page" links of a
// repository's pages (see site.Repository.EditURL), or "" when no link can
// be made: the forge is not one whose edit URLs are known, the branch is
// unknown, or the repository has several documentation roots (a page's file
// could then be under any of them).
//
// The link is built from the clone URL with any credentials removed, so a
// token in the URL never reaches a page.
func editURL(cloneURL, branch string, roots []string) string {
	if branch == "" || len(roots) != 1 {
		return ""
	}
	prefix, query := forge.EditPage(cloneURL)
	if prefix == "" {
		return ""
	}
	file := site.EditURLPlaceholder
	if root := path.Clean(strings.Trim(roots[0], "/")); root != "." && root != "" {
		file = escapePath(root) + "/" + file
	}
	return prefix + escapePath(branch) + "/" + file + query
}

// webURL turns a clone URL into the repository's web address (see
// forge.WebURL).
func webURL(cloneURL string) string {
	return forge.WebURL(cloneURL)
}

// escapePath escapes each segment of a slash path for a URL.
func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// sourceURL returns the pattern of the forge's page of a repository file
// at ref (a branch or tag), with site.EditURLPlaceholder for the file's
// repository path (see site.Repository.SourceURL), or "" when the forge's
// file pages are not known. A branch rather than the commit: the commit
// would change every unit's content address on every push, even when its
// documentation did not change.
func sourceURL(cloneURL, ref string) string {
	if ref == "" {
		return ""
	}
	prefix := forge.SourcePage(cloneURL)
	if prefix == "" {
		return ""
	}
	return prefix + escapePath(ref) + "/" + site.EditURLPlaceholder
}
