package config

import (
	"strings"
	"testing"
)

func TestRepositoryRules(t *testing.T) {
	repo := func(c *Config) *Repository { return &c.Repositories[0] }
	runRuleCases(t, []ruleCase{
		{"no repositories in direct mode", ModeDirect, func(c *Config) { c.Repositories = nil },
			"repositories", []string{"no repository is configured"}},
		{"no repositories in daemon mode", ModeDaemon, func(c *Config) { c.Repositories = nil },
			"repositories", []string{"at least one entry"}},
		{"missing url", ModeDirect, func(c *Config) { repo(c).URL = "" },
			"repositories[0].url", []string{"missing; expected the repository's Git clone URL"}},
		{"missing name", ModeDirect, func(c *Config) { repo(c).Name = "" },
			"repositories[0].name", []string{"missing; expected a unique name"}},
		{"name with slash", ModeDirect, func(c *Config) { repo(c).Name = "org/repo" },
			"repositories[0].name", []string{`"org/repo" is not safe as a path segment`, "letters, digits, -, _ and ."}},
		{"name starting with dot", ModeDirect, func(c *Config) { repo(c).Name = ".git" },
			"repositories[0].name", []string{"not starting with ."}},
		{"name of the links by id's folder", ModeDirect, func(c *Config) { repo(c).Name = "_Xref" },
			"repositories[0].name", []string{`"_Xref" is reserved`, "/docs/_xref/"}},
		{"name with space", ModeDirect, func(c *Config) { repo(c).Name = "my docs" },
			"repositories[0].name", []string{"not safe"}},
		{"duplicate name names both indexes", ModeDirect, func(c *Config) {
			c.Repositories = append(c.Repositories,
				Repository{URL: "u2", Name: "other"},
				Repository{URL: "u3", Name: "Handbook"})
		}, "repositories[2].name", []string{`"Handbook" is also the name of repositories[0]`, "ignoring case"}},
		{"empty paths list", ModeDirect, func(c *Config) { repo(c).Paths = []string{} },
			"repositories[0].paths", []string{"empty list", "omit the key for [docs]"}},
		{"empty path entry", ModeDirect, func(c *Config) { repo(c).Paths = []string{"docs", " "} },
			"repositories[0].paths[1]", []string{"is empty"}},
		{"absolute path", ModeDirect, func(c *Config) { repo(c).Paths = []string{"/etc"} },
			"repositories[0].paths[0]", []string{`"/etc" is absolute`, "relative to the repository root"}},
		{"escaping path", ModeDirect, func(c *Config) { repo(c).Paths = []string{"docs/../../secrets"} },
			"repositories[0].paths[0]", []string{"escapes the repository"}},
		{"bare dot-dot", ModeDirect, func(c *Config) { repo(c).Paths = []string{".."} },
			"repositories[0].paths[0]", []string{"escapes the repository"}},
		{"unknown auth type", ModeDirect, func(c *Config) { repo(c).Auth.Type = "oauth" },
			"repositories[0].auth.type", []string{`"oauth" is not allowed; expected one of token, basic, ssh`}},
		{"token type without token", ModeDirect, func(c *Config) { repo(c).Auth.Type = AuthToken },
			"repositories[0].auth.token", []string{"missing; repositories[0].auth.type token needs it"}},
		{"basic without username", ModeDirect, func(c *Config) { repo(c).Auth = Auth{Type: AuthBasic, Password: "p"} },
			"repositories[0].auth.username", []string{"missing; repositories[0].auth.type basic needs it"}},
		{"basic without password", ModeDirect, func(c *Config) { repo(c).Auth = Auth{Type: AuthBasic, Username: "u"} },
			"repositories[0].auth.password", []string{"missing; repositories[0].auth.type basic needs it"}},
		{"ssh without key path", ModeDirect, func(c *Config) { repo(c).Auth.Type = AuthSSH },
			"repositories[0].auth.key_path", []string{"missing; repositories[0].auth.type ssh needs it"}},
		{"token without type", ModeDirect, func(c *Config) { repo(c).Auth.Token = "t" },
			"repositories[0].auth.token", []string{"is set but repositories[0].auth.type is empty; expected repositories[0].auth.type token"}},
		{"password without type", ModeDirect, func(c *Config) { repo(c).Auth.Password = "p" },
			"repositories[0].auth.password", []string{"expected repositories[0].auth.type basic"}},
		{"key path without type", ModeDirect, func(c *Config) { repo(c).Auth.KeyPath = "/k" },
			"repositories[0].auth.key_path", []string{"expected repositories[0].auth.type ssh"}},
		{"field of another type", ModeDirect, func(c *Config) { repo(c).Auth = Auth{Type: AuthToken, Token: "t", Password: "p"} },
			"repositories[0].auth.password", []string{"is not used by repositories[0].auth.type token"}},
	})
}

func TestRepositoryRulesAcceptValidAuth(t *testing.T) {
	for _, a := range []Auth{
		{Type: AuthToken, Token: "t"},
		{Type: AuthBasic, Username: "u", Password: "p"},
		{Type: AuthSSH, KeyPath: "/home/u/.ssh/id_ed25519"},
	} {
		c := validConfig(t, ModeDirect)
		c.Repositories[0].Auth = a
		if err := c.Validate(); err != nil {
			t.Errorf("auth %s: %v", a.Type, err)
		}
	}
}

func TestRepositoryRulesAllowedPaths(t *testing.T) {
	c := validConfig(t, ModeDirect)
	c.Repositories[0].Paths = []string{".", "docs", "a/b/../c", "./guide"}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestRepositoriesNotRequiredForIngress(t *testing.T) {
	c := validConfig(t, ModeIngress)
	c.Repositories = nil
	if err := c.Validate(); err != nil {
		t.Fatalf("an ingress-only configuration needs no repositories: %v", err)
	}
}

func TestAuthProblemsNeverContainSecrets(t *testing.T) {
	c := validConfig(t, ModeDirect)
	c.Repositories[0].Auth = Auth{Token: "tok-SECRET-1", Password: "pw-SECRET-2", Username: "user"}
	err := c.Validate()
	problemsOf(t, err)
	if strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("secret in error: %v", err)
	}
}

func TestRepositoryRulesFromYAML(t *testing.T) {
	_, err := loadText(t, `repositories:
  - url: https://a.example/x.git
    name: x
  - url: https://b.example/y.git
    name: x
  - name: "../up"
    paths: [/abs]
    auth: {type: token}
`, ModeDirect)
	requireProblem(t, err, "repositories[1].name", "also the name of repositories[0]")
	requireProblem(t, err, "repositories[2].url", "missing")
	requireProblem(t, err, "repositories[2].name", "not safe")
	requireProblem(t, err, "repositories[2].paths[0]", "absolute")
	requireProblem(t, err, "repositories[2].auth.token", "missing")
}

func TestSSHHostKeySettingsBelongToSSH(t *testing.T) {
	base := func() Config {
		c := Default()
		c.Repositories = []Repository{{Name: "a", URL: "ssh://git@h/a.git"}}
		return c
	}
	c := base()
	c.Repositories[0].Auth = Auth{Type: AuthToken, Token: "t", KnownHosts: "/k"}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "repositories[0].auth.known_hosts") {
		t.Fatalf("known_hosts with token auth: %v", err)
	}
	c = base()
	c.Repositories[0].Auth = Auth{Type: AuthSSH, KeyPath: "/id", KnownHosts: "/k", InsecureIgnoreHostKey: true}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "repositories[0].auth.insecure_ignore_host_key") {
		t.Fatalf("pinned and ignored at once: %v", err)
	}
	c = base()
	c.Repositories[0].Auth = Auth{Type: AuthSSH, KeyPath: "/id", KnownHosts: "/k"}
	if err := c.Validate(); err != nil {
		t.Fatalf("valid ssh auth refused: %v", err)
	}
}
