// Package forge names the hosting service a repository lives on, derived
// from its clone URL. The name is used to namespace content paths when a
// site aggregates repositories from more than one forge, and in reports and
// broken-link events so subscribers can route them.
package forge

import (
	"strings"

	"github.com/docweave/docweave/gitx/remote"
)

// Well-known forge names.
const (
	GitHub    = "github"
	GitLab    = "gitlab"
	Forgejo   = "forgejo"
	Bitbucket = "bitbucket"
	Local     = "local"
)

// Host returns the host name of a clone URL, accepting scp-like SSH
// addresses (git@host:owner/repo.git); "" for local paths and file URLs.
func Host(cloneURL string) string {
	a, err := remote.Parse(cloneURL)
	if err != nil || a.Local() {
		return ""
	}
	return strings.ToLower(a.Host)
}

// FromURL maps a clone URL to a forge name: github.com → github, any host
// whose name contains "gitlab" → gitlab, codeberg.org or a host containing
// "forgejo" or "gitea" → forgejo, bitbucket.org → bitbucket, file URLs and
// paths → local; any other host gives its own name with dots turned into
// dashes (docs.example.com → docs-example-com), so it is a safe path segment.
func FromURL(cloneURL string) string {
	host := Host(cloneURL)
	switch {
	case host == "":
		return Local
	case host == "github.com" || strings.HasSuffix(host, ".github.com"):
		return GitHub
	case strings.Contains(host, "gitlab"):
		return GitLab
	case host == "codeberg.org" || strings.Contains(host, "forgejo") || strings.Contains(host, "gitea"):
		return Forgejo
	case host == "bitbucket.org":
		return Bitbucket
	}
	return Segment(host)
}

// Segment turns a lower-case host name into a safe path segment: dots and
// anything else but letters, digits and dashes become dashes
// (docs.example.com → docs-example-com).
func Segment(host string) string {
	var b strings.Builder
	for _, r := range host {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}

// Namespace reports whether content paths get a forge prefix, by the
// namespace_forges rule: "always", "never", or "auto" — prefix when more than
// one distinct forge occurs among the repositories.
func Namespace(mode string, forges []string) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	distinct := map[string]bool{}
	for _, f := range forges {
		distinct[f] = true
	}
	return len(distinct) > 1
}
