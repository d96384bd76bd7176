package config

import (
	"net/url"
	"path"
	"strings"

	"github.com/docweave/docweave/forge"
)

// Forge types of forges[].type.
const (
	ForgeGitHub  = "github"
	ForgeGitLab  = "gitlab"
	ForgeForgejo = "forgejo"
)

// Forge is one forge whose organisations (GitHub, Forgejo) or groups
// (GitLab, subgroups included) are scanned for repositories with
// documentation. The repositories found join repositories[] for every
// build, under the same naming and namespacing rules; the scan is repeated
// on the daemon's sync schedule.
type Forge struct {
	// Type is github, gitlab or forgejo (Forgejo and Gitea share an API).
	Type string `mapstructure:"type" yaml:"type"`
	// Name labels the forge in reports, /status and logs; default: derived
	// from the host of base_url (github, gitlab, forgejo, or the host name).
	Name string `mapstructure:"name" yaml:"name"`
	// BaseURL is where the API lives: GitHub's API root
	// (https://api.github.com, or https://host/api/v3 for GitHub
	// Enterprise), the GitLab or Forgejo instance root.
	BaseURL string `mapstructure:"base_url" yaml:"base_url"`
	// Auth authenticates API requests and the clones of the repositories
	// found, as repositories[].auth does; with type ssh the API is asked
	// anonymously (public repositories only) and clones use SSH.
	Auth Auth `mapstructure:"auth" yaml:"auth"`
	// Organizations are the organisations or users (GitHub, Forgejo) or
	// groups (GitLab, full path such as platform/docs) to scan.
	Organizations []string `mapstructure:"organizations" yaml:"organizations"`
	// Include and Exclude are globs a repository must match (any of
	// Include, none of Exclude); a pattern with a slash is matched against
	// the full path (org/repo), one without against the repository name.
	Include []string `mapstructure:"include" yaml:"include"`
	Exclude []string `mapstructure:"exclude" yaml:"exclude"`
	// Paths are the documentation roots of the repositories found; a
	// repository is taken only when at least one of them exists on its
	// default branch. Default [docs].
	Paths []string `mapstructure:"paths" yaml:"paths"`
	// IncludeArchived and IncludeForks take archived repositories and forks
	// too; both are left out by default.
	IncludeArchived bool `mapstructure:"include_archived" yaml:"include_archived"`
	IncludeForks    bool `mapstructure:"include_forks" yaml:"include_forks"`
	// Webhooks registers docweave's webhook on the repositories found.
	Webhooks ForgeWebhooks `mapstructure:"webhooks" yaml:"webhooks"`
}

// ForgeWebhooks asks discovery to register docweave's webhook on every
// repository it takes, signed with the forge's secret from
// daemon.webhooks, so pushes trigger builds without manual set-up.
type ForgeWebhooks struct {
	Register bool `mapstructure:"register" yaml:"register"`
	// URL is where the forge reaches docweave's webhook server from
	// outside, e.g. https://docs.example.com:8081; the forge's path
	// (/webhooks/github, /webhooks/gitlab, /webhooks/forgejo) is appended.
	URL string `mapstructure:"url" yaml:"url"`
}

// DocPaths returns the documentation roots of the forge's repositories,
// defaulting to docs.
func (f Forge) DocPaths() []string {
	if len(f.Paths) == 0 {
		return []string{DefaultDocsPath}
	}
	return f.Paths
}

// APIBase is the forge's API base URL without a trailing slash: base_url,
// or the public service's for github (api.github.com) and gitlab
// (gitlab.com).
func (f Forge) APIBase() string {
	base := strings.TrimRight(f.BaseURL, "/")
	if base != "" {
		return base
	}
	switch f.Type {
	case ForgeGitHub:
		return DefaultGitHubAPI
	case ForgeGitLab:
		return DefaultGitLabURL
	}
	return ""
}

// Label is the forge's name, or one derived from its type and host.
func (f Forge) Label() string {
	if f.Name != "" {
		return f.Name
	}
	host := ""
	if u, err := url.Parse(f.APIBase()); err == nil {
		host = strings.ToLower(u.Hostname())
	}
	switch {
	case host == "", host == "api.github.com", host == "github.com", host == "gitlab.com", host == "codeberg.org":
		return f.Type
	}
	return f.Type + "-" + forge.Segment(host)
}

// WebhookPath is the path of docweave's webhook server that receives the
// forge's deliveries.
func (f Forge) WebhookPath() string {
	return "/webhooks/" + f.Type
}

// Takes reports whether a repository with the given full path (owner/name
// or group/subgroup/name) passes the include and exclude globs.
func (f Forge) Takes(fullPath string) bool {
	name := fullPath[strings.LastIndexByte(fullPath, '/')+1:]
	matches := func(globs []string) bool {
		for _, g := range globs {
			subject := name
			if strings.Contains(g, "/") {
				subject = fullPath
			}
			if ok, _ := path.Match(g, subject); ok {
				return true
			}
		}
		return false
	}
	if len(f.Include) > 0 && !matches(f.Include) {
		return false
	}
	return !matches(f.Exclude)
}
