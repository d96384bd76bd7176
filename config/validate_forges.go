package config

import (
	"fmt"
	"net/url"
	"reflect"
	"strings"
)

// validateForges checks forges[]: the type, an http(s) API URL without
// credentials, unique path-safe names, what to scan, the globs and
// documentation roots, the credentials each auth.type needs, and that
// webhook registration has a public URL and the forge's secret.
func (c *Config) validateForges(l *problemList) {
	firstByName := map[string]int{}
	for i, f := range c.Forges {
		prefix := fmt.Sprintf("forges[%d]", i)
		checkEnum(l, prefix+".type", f.Type, ForgeGitHub, ForgeGitLab, ForgeForgejo)
		switch {
		case f.BaseURL == "" && f.Type == ForgeForgejo:
			l.add(prefix+".base_url", "missing; expected the Forgejo or Gitea instance's URL, such as https://codeberg.org")
		case f.BaseURL != "":
			checkHTTPURL(l, prefix+".base_url", f.BaseURL, "the forge's API URL, such as https://api.github.com or https://gitlab.example.com")
		}
		name := f.Label()
		switch {
		case !isSafeSegment(name):
			l.add(prefix+".name", "%q is not safe as a name; %s", name, safeSegmentExpected)
		default:
			folded := strings.ToLower(name)
			if first, seen := firstByName[folded]; seen {
				l.add(prefix+".name", "%q is also the name of forges[%d]; set forges[].name to tell them apart", name, first)
			} else {
				firstByName[folded] = i
			}
		}
		if len(f.Organizations) == 0 {
			l.add(prefix+".organizations", "missing; expected the organisations, users or groups to scan")
		}
		for j, o := range f.Organizations {
			if strings.TrimSpace(o) == "" || strings.ContainsAny(o, " ?#%") || strings.HasPrefix(o, "/") || strings.HasSuffix(o, "/") || strings.Contains(o, "..") {
				l.add(fmt.Sprintf("%s.organizations[%d]", prefix, j), "%q is not an organisation, user or group path; expected a name such as platform or platform/docs", o)
			}
		}
		checkGlobs(l, prefix+".include", f.Include)
		checkGlobs(l, prefix+".exclude", f.Exclude)
		validateDocPaths(l, prefix+".paths", f.Paths)
		validateAuth(l, prefix+".auth", f.Auth)
		c.validateForgeWebhooks(l, prefix, f)
	}
}

// validateForgeWebhooks checks webhook registration.
func (c *Config) validateForgeWebhooks(l *problemList, prefix string, f Forge) {
	w := f.Webhooks
	if !w.Register {
		if w.URL != "" {
			checkHTTPURL(l, prefix+".webhooks.url", w.URL, "docweave's webhook server as the forge reaches it")
		}
		return
	}
	if w.URL == "" {
		l.add(prefix+".webhooks.url", "missing; webhooks.register needs the URL where the forge reaches docweave's webhook server, such as https://docs.example.com:8081")
	} else {
		checkHTTPURL(l, prefix+".webhooks.url", w.URL, "docweave's webhook server as the forge reaches it")
	}
	secretKey, secret := "", ""
	switch f.Type {
	case ForgeGitHub:
		secretKey, secret = "daemon.webhooks.github_secret", c.Daemon.Webhooks.GitHubSecret
	case ForgeGitLab:
		secretKey, secret = "daemon.webhooks.gitlab_token", c.Daemon.Webhooks.GitLabToken
	case ForgeForgejo:
		secretKey, secret = "daemon.webhooks.forgejo_secret", c.Daemon.Webhooks.ForgejoSecret
	default:
		return
	}
	if secret == "" {
		l.add(prefix+".webhooks.register", "needs %s: the webhooks are registered with it and deliveries are verified against it", secretKey)
	}
	if f.Auth.Type != AuthToken && f.Auth.Type != AuthBasic {
		l.add(prefix+".webhooks.register", "needs API credentials (auth.type token or basic) that may manage the repositories' webhooks")
	}
}

// checkHTTPURL reports a value that is not an absolute http(s) URL, or
// that carries credentials, a query or a fragment.
func checkHTTPURL(l *problemList, key, raw, what string) {
	u, err := url.Parse(raw)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		l.add(key, "%q is not an http(s) URL; expected %s", redactUserInfo(raw), what)
	case u.User != nil:
		l.add(key, "carries credentials; give them in auth instead")
	case u.RawQuery != "" || u.Fragment != "":
		l.add(key, "%q has a query or fragment; expected %s", raw, what)
	}
}

// forgesHashView is forges[] for the configuration hash, with secrets
// replaced by their digests.
func forgesHashView(forges []Forge) []any {
	out := make([]any, len(forges))
	for i, f := range forges {
		view := structView(reflect.ValueOf(f))
		auth := view["auth"].(map[string]any)
		auth["token"] = secretDigest(f.Auth.Token)
		auth["password"] = secretDigest(f.Auth.Password)
		out[i] = view
	}
	return out
}
