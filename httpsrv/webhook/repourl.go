package webhook

import (
	"net/url"
	"regexp"
	"strings"
)

// scpLikeURL matches Git's scp-like SSH syntax, [user@]host:path, whose
// host is at least two characters so a Windows drive (C:\docs) is a path.
var scpLikeURL = regexp.MustCompile(`^(?:[^@/\s]+@)?([^@:/\s]{2,}):(.*)$`)

// repoKey reduces a repository URL to the form in which two spellings of
// the same repository compare equal: "host/path", with the scheme, port,
// credentials, query, ".git" suffix and surrounding slashes dropped and
// everything lower-cased. So https://github.com/Org/Repo.git,
// git@github.com:org/repo and ssh://git@github.com:22/org/repo/ share a
// key. The port is dropped because a forge serves one repository over
// HTTPS and SSH on different ports. Paths are compared case-insensitively
// because the major forges treat them so; at worst an extra build runs,
// and skip evaluation makes that cheap. Local paths keep an empty host.
// It returns "" for a URL that names nothing.
func repoKey(raw string) string {
	s := strings.TrimSpace(raw)
	if s == "" {
		return ""
	}
	var host, path string
	switch m := scpLikeURL.FindStringSubmatch(s); {
	case strings.Contains(s, "://"):
		u, err := url.Parse(s)
		if err != nil {
			return ""
		}
		host, path = u.Hostname(), u.Path
	case m != nil:
		host, path = m[1], m[2]
	default:
		path = s
	}
	path = strings.Trim(strings.ReplaceAll(path, "\\", "/"), "/")
	path = strings.TrimSuffix(strings.ToLower(path), ".git")
	path = strings.Trim(path, "/")
	host = strings.ToLower(host)
	if host == "" && path == "" {
		return ""
	}
	return host + "/" + collapseSlashes(path)
}

// collapseSlashes turns runs of "/" into one, so a//b and a/b match.
func collapseSlashes(path string) string {
	for strings.Contains(path, "//") {
		path = strings.ReplaceAll(path, "//", "/")
	}
	return path
}
