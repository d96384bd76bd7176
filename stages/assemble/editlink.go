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
	base := webURL(cloneURL)
	if base == "" {
		return ""
	}
	var prefix string
	switch forge.FromURL(cloneURL) {
	case forge.GitHub:
		prefix = base + "/edit/"
	case forge.GitLab:
		prefix = base + "/-/edit/"
	case forge.Forgejo:
		prefix = base + "/_edit/"
	case forge.Bitbucket:
		prefix = base + "/src/"
	default:
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
