package assemble

import (
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/docweave/docweave/forge"
	"github.com/docweave/docweave/site"
)

// scpLikeURL matches Git's scp-like SSH addresses: [user@]host:owner/repo.
var scpLikeURL = regexp.MustCompile(`^(?:[^@/]+@)?([^:/]+):(.+)$`)

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
	prefix := forgePages(cloneURL, editPages)
	if prefix == "" {
		return ""
	}
	file := site.EditURLPlaceholder
	if root := path.Clean(strings.Trim(roots[0], "/")); root != "." && root != "" {
		file = escapePath(root) + "/" + file
	}
	pattern := prefix + escapePath(branch) + "/" + file
	if forge.FromURL(cloneURL) == forge.Bitbucket {
		pattern += "?mode=edit"
	}
	return pattern
}

// editPages and sourcePages are, per forge, the path after a repository's
// web address that leads to a file's edit page and to its page, before
// the branch or tag.
var (
	editPages   = map[string]string{forge.GitHub: "/edit/", forge.GitLab: "/-/edit/", forge.Forgejo: "/_edit/", forge.Bitbucket: "/src/"}
	sourcePages = map[string]string{forge.GitHub: "/blob/", forge.GitLab: "/-/blob/", forge.Forgejo: "/src/branch/", forge.Bitbucket: "/src/"}
)

// forgePages is the repository's web address followed by its forge's
// entry in pages, or "" when the forge or the address is not known.
func forgePages(cloneURL string, pages map[string]string) string {
	base := webURL(cloneURL)
	p, ok := pages[forge.FromURL(cloneURL)]
	if base == "" || !ok {
		return ""
	}
	return base + p
}

// webURL turns a clone URL into the repository's web address:
// https://host/owner/repo, without credentials, port of an SSH URL or
// ".git"; "" when the URL names no host.
func webURL(cloneURL string) string {
	var host, repoPath string
	scheme := "https"
	if u, err := url.Parse(cloneURL); err == nil && u.Host != "" && u.Scheme != "" {
		host, repoPath = u.Hostname(), u.Path
		if u.Scheme == "http" {
			scheme = "http"
			if u.Port() != "" {
				host = u.Host
			}
		} else if u.Scheme == "https" && u.Port() != "" {
			host = u.Host
		}
	} else if m := scpLikeURL.FindStringSubmatch(cloneURL); m != nil && !strings.Contains(cloneURL, "://") {
		host, repoPath = m[1], m[2]
	}
	repoPath = strings.TrimSuffix(strings.Trim(repoPath, "/"), ".git")
	if host == "" || repoPath == "" {
		return ""
	}
	return scheme + "://" + host + "/" + repoPath
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
	prefix := forgePages(cloneURL, sourcePages)
	if prefix == "" {
		return ""
	}
	return prefix + escapePath(ref) + "/" + site.EditURLPlaceholder
}
