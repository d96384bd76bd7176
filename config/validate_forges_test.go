package config

import (
	"path/filepath"
	"strings"
	"testing"
)

const forgeOnly = `forges:
  - type: github
    auth:
      type: token
      token: ghp_secret_value
    organizations: [example-org]
`

func TestForgesAloneValidate(t *testing.T) {
	c := mustLoad(t, forgeOnly, ModeDaemon)
	if len(c.Repositories) != 0 || len(c.Forges) != 1 {
		t.Fatalf("loaded %d repositories and %d forges", len(c.Repositories), len(c.Forges))
	}
	f := c.Forges[0]
	if f.APIBase() != DefaultGitHubAPI || f.Label() != "github" || f.WebhookPath() != "/webhooks/github" {
		t.Fatalf("defaults: base %q, label %q, path %q", f.APIBase(), f.Label(), f.WebhookPath())
	}
	if got := f.DocPaths(); len(got) != 1 || got[0] != "docs" {
		t.Fatalf("paths default to %v, want [docs]", got)
	}
}

func TestForgeLabels(t *testing.T) {
	for _, c := range []struct {
		f    Forge
		want string
	}{
		{Forge{Type: ForgeGitLab}, "gitlab"},
		{Forge{Type: ForgeForgejo, BaseURL: "https://codeberg.org"}, "forgejo"},
		{Forge{Type: ForgeForgejo, BaseURL: "https://git.example.com/"}, "forgejo-git-example-com"},
		{Forge{Type: ForgeGitHub, BaseURL: "https://ghe.corp.example/api/v3"}, "github-ghe-corp-example"},
		{Forge{Type: ForgeGitHub, Name: "public"}, "public"},
	} {
		if got := c.f.Label(); got != c.want {
			t.Errorf("%+v: label %q, want %q", c.f, got, c.want)
		}
	}
}

func TestForgeRules(t *testing.T) {
	forge := func(c *Config) *Forge {
		if len(c.Forges) == 0 {
			c.Forges = []Forge{{Type: ForgeGitHub, Organizations: []string{"org"}}}
		}
		return &c.Forges[0]
	}
	runRuleCases(t, []ruleCase{
		{"unknown type", ModeDirect, func(c *Config) { forge(c).Type = "bitbucket" },
			"forges[0].type", []string{`"bitbucket" is not allowed`, "github, gitlab, forgejo"}},
		{"forgejo needs a base url", ModeDirect, func(c *Config) { forge(c).Type = ForgeForgejo },
			"forges[0].base_url", []string{"missing", "codeberg.org"}},
		{"base url scheme", ModeDirect, func(c *Config) { forge(c).BaseURL = "ftp://forge.example" },
			"forges[0].base_url", []string{"not an http(s) URL"}},
		{"base url credentials", ModeDirect, func(c *Config) { forge(c).BaseURL = "https://user:hunter2@forge.example" },
			"forges[0].base_url", []string{"carries credentials", "auth"}},
		{"duplicate derived names", ModeDirect, func(c *Config) {
			forge(c)
			c.Forges = append(c.Forges, Forge{Type: ForgeGitHub, Organizations: []string{"other"}})
		}, "forges[1].name", []string{`"github" is also the name of forges[0]`, "forges[].name"}},
		{"no organizations", ModeDirect, func(c *Config) { forge(c).Organizations = nil },
			"forges[0].organizations", []string{"missing"}},
		{"bad organization", ModeDirect, func(c *Config) { forge(c).Organizations = []string{"a b"} },
			"forges[0].organizations[0]", []string{"not an organisation"}},
		{"bad glob", ModeDirect, func(c *Config) { forge(c).Include = []string{"[docs"} },
			"forges[0].include[0]", []string{"not a valid glob"}},
		{"escaping path", ModeDirect, func(c *Config) { forge(c).Paths = []string{"../x"} },
			"forges[0].paths[0]", []string{"escapes the repository"}},
		{"token without type", ModeDirect, func(c *Config) { forge(c).Auth.Token = "t" },
			"forges[0].auth.token", []string{"type is empty"}},
		{"register without url", ModeDaemon, func(c *Config) {
			f := forge(c)
			f.Webhooks.Register, f.Auth = true, Auth{Type: AuthToken, Token: "t"}
			c.Daemon.Webhooks.GitHubSecret = "s"
		}, "forges[0].webhooks.url", []string{"missing"}},
		{"register without secret", ModeDaemon, func(c *Config) {
			f := forge(c)
			f.Webhooks, f.Auth = ForgeWebhooks{Register: true, URL: "https://docs.example.com"}, Auth{Type: AuthToken, Token: "t"}
		}, "forges[0].webhooks.register", []string{"daemon.webhooks.github_secret"}},
		{"register without api credentials", ModeDaemon, func(c *Config) {
			forge(c).Webhooks = ForgeWebhooks{Register: true, URL: "https://docs.example.com"}
			c.Daemon.Webhooks.GitHubSecret = "s"
		}, "forges[0].webhooks.register", []string{"API credentials"}},
	})
}

func TestForgeProblemsNeverShowSecrets(t *testing.T) {
	_, err := loadText(t, `forges:
  - type: forgejo
    base_url: https://user:hunter2@git.example.com
    auth: {type: token, token: 12345}
    organizations: [org]
`, ModeDirect)
	if err == nil || strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "12345") {
		t.Fatalf("problems must not show secrets: %v", err)
	}
}

func TestForgeKeyPathIsResolvedAgainstTheFile(t *testing.T) {
	c := mustLoad(t, `forges:
  - type: gitlab
    auth: {type: ssh, key_path: keys/id_ed25519}
    organizations: [platform/docs]
`, ModeDirect)
	if got, want := c.Forges[0].Auth.KeyPath, filepath.Join(filepath.Dir(c.Path), "keys", "id_ed25519"); got != want {
		t.Fatalf("key_path %q, want %q", got, want)
	}
}

func TestForgeHashCoversTheSectionButNotItsSecrets(t *testing.T) {
	a := mustLoad(t, forgeOnly, ModeDaemon)
	b := mustLoad(t, strings.Replace(forgeOnly, "ghp_secret_value", "ghp_rotated", 1), ModeDaemon)
	c := mustLoad(t, strings.Replace(forgeOnly, "example-org", "other-org", 1), ModeDaemon)
	if a.Hash() == b.Hash() || a.Hash() == c.Hash() {
		t.Fatal("a rotated token or another organisation must change the hash")
	}
	if strings.Contains(string(a.hashInput()), "ghp_secret_value") {
		t.Fatal("the hash input contains the forge token")
	}
}

func TestForgeTakesIncludeAndExclude(t *testing.T) {
	f := Forge{Include: []string{"docs-*", "platform/*"}, Exclude: []string{"*-old", "platform/secret"}}
	for path, want := range map[string]bool{
		"org/docs-api":     true,
		"org/handbook":     false,
		"platform/runtime": true,
		"platform/secret":  false,
		"org/docs-old":     false,
		"group/sub/docs-x": true,
	} {
		if got := f.Takes(path); got != want {
			t.Errorf("Takes(%q) = %v, want %v", path, got, want)
		}
	}
	if !(Forge{}).Takes("any/thing") {
		t.Error("without globs every repository is taken")
	}
}

func TestDiscoveredRepositoriesJoinTheListedOnes(t *testing.T) {
	c := mustLoad(t, oneRepo+forgeOnly, ModeDaemon)
	copied := *c // stages hold copies and pointers alike
	c.SetDiscovered([]Repository{
		{Name: "api", URL: "https://github.com/example-org/api.git"},
		{Name: "handbook", URL: "https://github.com/example-org/handbook.git"}, // shadowed by the listed one
	}, []ForgeStatus{{Name: "github", OK: true, Repositories: 2}})
	all := copied.AllRepositories()
	if len(all) != 2 || all[0].Name != "handbook" || all[0].URL != "https://git.example.com/org/handbook.git" || all[1].Name != "api" {
		t.Fatalf("all repositories %+v: want the listed handbook, then api", all)
	}
	if r, ok := copied.Repository("api"); !ok || r.URL != "https://github.com/example-org/api.git" {
		t.Fatalf("Repository(api) = %+v, %v", r, ok)
	}
	if st := copied.ForgeStatuses(); len(st) != 1 || st[0].Name != "github" {
		t.Fatalf("forge statuses %+v", st)
	}
	c.SetDiscovered(nil, nil)
	if _, ok := copied.Repository("api"); ok {
		t.Fatal("a repository that left the discovered set is still found")
	}
}
