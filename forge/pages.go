package forge

import (
	"github.com/docweave/docweave/gitx/remote"
)

// pages are the paths, after a repository's web address, of one forge's
// page of a file and of its edit page, each followed by the branch or tag
// and the file's path, and the query an edit link ends with.
type pages struct {
	source, edit, editQuery string
}

// forgePages holds every forge's file and edit pages docweave writes
// links to. Forges not listed get neither.
var forgePages = map[string]pages{
	GitHub:    {source: "/blob/", edit: "/edit/"},
	GitLab:    {source: "/-/blob/", edit: "/-/edit/"},
	Forgejo:   {source: "/src/branch/", edit: "/_edit/"},
	Bitbucket: {source: "/src/", edit: "/src/", editQuery: "?mode=edit"},
}

// filePages are the paths after a repository's web address, before the
// branch, tag or commit, that lead to the page of a file or a folder on
// GitHub (blob/, tree/), GitLab (-/blob/, -/tree/) and Forgejo or Gitea
// (src/branch/, src/tag/, src/commit/).
var filePages = []string{"blob/", "tree/", "-/blob/", "-/tree/", "src/branch/", "src/tag/", "src/commit/"}

// FilePages returns the paths that, after a repository's web address
// and before the branch, tag or commit, lead to the forges' page of a file
// or folder, so a link written to one can be read back as a repository
// file. The slice is a copy.
func FilePages() []string {
	return append([]string(nil), filePages...)
}

// WebURL is the repository's web address, https://host/owner/repo,
// derived from its clone URL: without credentials, ".git", or the port of
// an SSH URL; http:// and an HTTP(S) port are kept. "" for a local
// repository or an address that names no host or repository.
func WebURL(cloneURL string) string {
	a, err := remote.Parse(cloneURL)
	if err != nil || a.Local() || a.Host == "" || a.Repo() == "" {
		return ""
	}
	scheme := "https"
	switch a.Scheme {
	case "http", "https":
		scheme = a.Scheme
	default:
		a.Port = "" // an SSH or Git port is not the web server's
	}
	return scheme + "://" + a.HostPort() + "/" + a.Repo()
}

// SourcePage is the address of the forge's pages of the repository's
// files up to the branch or tag (https://github.com/o/r/blob/), or ""
// when the forge's file pages are not known.
func SourcePage(cloneURL string) string {
	p, base := pagesOf(cloneURL)
	if base == "" || p.source == "" {
		return ""
	}
	return base + p.source
}

// EditPage is the address of the forge's edit pages of the repository's
// files up to the branch (https://github.com/o/r/edit/) and the query
// that follows the file's path, or "" when the forge's edit pages are not
// known.
func EditPage(cloneURL string) (prefix, query string) {
	p, base := pagesOf(cloneURL)
	if base == "" || p.edit == "" {
		return "", ""
	}
	return base + p.edit, p.editQuery
}

// pagesOf is the forge's pages and the repository's web address, "" when
// either is unknown.
func pagesOf(cloneURL string) (pages, string) {
	p, ok := forgePages[FromURL(cloneURL)]
	if !ok {
		return pages{}, ""
	}
	return p, WebURL(cloneURL)
}
