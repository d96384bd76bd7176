package discovery

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"

	"github.com/docweave/docweave/config"
)

// listedRepo is one repository as a forge lists it, reduced to what
// discovery needs.
type listedRepo struct {
	ID        string // the forge's own ID (GitLab addresses projects by it)
	FullPath  string // owner/name, group/subgroup/name
	Name      string
	HTTPURL   string
	SSHURL    string
	Branch    string // default branch
	UpdatedAt string // last push or activity, as the forge writes it
	Archived  bool
	Fork      bool
	Empty     bool
}

// dialect is one forge's API: listing an organisation's repositories,
// telling whether a path exists, and managing webhooks.
type dialect interface {
	// list returns every repository of an organisation, user or group.
	list(ctx context.Context, owner string) ([]listedRepo, error)
	// hasPath reports whether path exists on the repository's default
	// branch.
	hasPath(ctx context.Context, r listedRepo, path string) (bool, error)
	// hookURLs lists the URLs of the repository's webhooks.
	hookURLs(ctx context.Context, r listedRepo) ([]string, error)
	// addHook registers a push webhook to url, signed with secret.
	addHook(ctx context.Context, r listedRepo, url, secret string) error
}

// newDialect builds the API client of a configured forge.
func newDialect(f config.Forge, c *client) dialect {
	base := f.APIBase()
	switch f.Type {
	case config.ForgeGitLab:
		c.auth = authWith(f.Auth, func(r *http.Request, token string) { r.Header.Set("PRIVATE-TOKEN", token) })
		return &gitlab{c: c, api: base + "/api/v4"}
	case config.ForgeForgejo:
		c.auth = authWith(f.Auth, func(r *http.Request, token string) { r.Header.Set("Authorization", "token "+token) })
		return &forgejo{c: c, api: base + "/api/v1"}
	default:
		c.headers["Accept"] = "application/vnd.github+json"
		c.headers["X-GitHub-Api-Version"] = "2022-11-28"
		c.auth = authWith(f.Auth, func(r *http.Request, token string) { r.Header.Set("Authorization", "Bearer "+token) })
		return &github{c: c, api: base}
	}
}

// authWith authenticates API requests: a token the forge's way, basic
// credentials as HTTP basic authentication; SSH credentials are for
// cloning only, so the API is then asked anonymously.
func authWith(a config.Auth, token func(*http.Request, string)) func(*http.Request) {
	switch a.Type {
	case config.AuthToken:
		return func(r *http.Request) { token(r, a.Token) }
	case config.AuthBasic:
		creds := base64.StdEncoding.EncodeToString([]byte(a.Username + ":" + a.Password))
		return func(r *http.Request) { r.Header.Set("Authorization", "Basic "+creds) }
	}
	return nil
}

// escapePath escapes each segment of a slash path for a URL path.
func escapePath(p string) string {
	parts := strings.Split(strings.Trim(p, "/"), "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}
