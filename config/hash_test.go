package config

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

func hashFixture() *Config {
	c := Default()
	c.Repositories = []Repository{
		{URL: "https://git.example.com/org/a.git", Name: "a", Paths: []string{"docs"},
			Auth: Auth{Type: AuthToken, Token: "tok-SECRET-one"}},
		{URL: "https://bob:pw-SECRET-url@git.example.com/org/b.git", Name: "b", Paths: []string{"docs"},
			Auth: Auth{Type: AuthBasic, Username: "bob", Password: "pw-SECRET-two"}},
	}
	c.Generator.Params = map[string]any{"themeVariant": "dark", "nested": map[string]any{"z": 1, "a": []any{"x", 2.5}}}
	return &c
}

func TestHashIsHexSHA256(t *testing.T) {
	if h := hashFixture().Hash(); !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(h) {
		t.Fatalf("Hash() = %q", h)
	}
}

func TestHashStable(t *testing.T) {
	want := hashFixture().Hash()
	for i := 0; i < 50; i++ { // map iteration order differs between runs
		c := hashFixture()
		c.Generator.Taxonomies = map[string]string{"category": "categories", "tag": "tags"}
		c.Generator.Params = map[string]any{"nested": map[string]any{"a": []any{"x", 2.5}, "z": 1}, "themeVariant": "dark"}
		if got := c.Hash(); got != want {
			t.Fatalf("hash changed with map order: %s != %s", got, want)
		}
	}
}

func TestHashIgnoresSettingsOutsideTheSite(t *testing.T) {
	base := hashFixture().Hash()
	c := hashFixture()
	c.Daemon.HTTP.DocsPort = 9999
	c.Daemon.LinkVerification.MaxConcurrent = 1
	c.Daemon.Sync.Schedule = "0 * * * *"
	c.Ingress.Port = 1
	c.Mode = ModeDaemon
	c.Path = "/elsewhere/docweave.yaml"
	if c.Hash() != base {
		t.Fatal("daemon, ingress, mode and path must not change the site hash")
	}
}

func TestHashSensitivity(t *testing.T) {
	base := hashFixture().Hash()
	changes := map[string]func(c *Config){
		"repository url":       func(c *Config) { c.Repositories[0].URL = "https://git.example.com/org/other.git" },
		"repository name":      func(c *Config) { c.Repositories[0].Name = "renamed" },
		"repository branch":    func(c *Config) { c.Repositories[0].Branch = "main" },
		"repository paths":     func(c *Config) { c.Repositories[0].Paths = []string{"docs", "api"} },
		"repository order":     func(c *Config) { c.Repositories[0], c.Repositories[1] = c.Repositories[1], c.Repositories[0] },
		"auth type":            func(c *Config) { c.Repositories[0].Auth = Auth{Type: AuthSSH, KeyPath: "/k"} },
		"rotated token":        func(c *Config) { c.Repositories[0].Auth.Token = "tok-SECRET-rotated" },
		"rotated password":     func(c *Config) { c.Repositories[1].Auth.Password = "pw-SECRET-rotated" },
		"rotated url password": func(c *Config) { c.Repositories[1].URL = "https://bob:new@git.example.com/org/b.git" },
		"username":             func(c *Config) { c.Repositories[1].Auth.Username = "alice" },
		"build":                func(c *Config) { c.Build.ShallowDepth = 0 },
		"build duration":       func(c *Config) { c.Build.RetryMaxDelay = time.Minute },
		"skip flag":            func(c *Config) { v := false; c.Build.SkipIfUnchanged = &v },
		"versioning":           func(c *Config) { c.Versioning.Enabled = true },
		"generator title":      func(c *Config) { c.Generator.Title = "New" },
		"generator param":      func(c *Config) { c.Generator.Params["themeVariant"] = "light" },
		"nested param":         func(c *Config) { c.Generator.Params["nested"].(map[string]any)["z"] = 2 },
		"param type":           func(c *Config) { c.Generator.Params["themeVariant"] = true },
		"taxonomy":             func(c *Config) { c.Generator.Taxonomies["series"] = "series" },
		"output directory":     func(c *Config) { c.Output.Directory = "/srv/site" },
		"output clean":         func(c *Config) { c.Output.Clean = false },
	}
	seen := map[string]string{base: "base"}
	for name, change := range changes {
		c := hashFixture()
		change(c)
		h := c.Hash()
		if other, dup := seen[h]; dup {
			t.Errorf("%s: hash equals that of %s", name, other)
		}
		seen[h] = name
	}
}

func TestHashInputContainsNoSecret(t *testing.T) {
	dump := string(hashFixture().hashInput())
	for _, secret := range []string{"SECRET", "pw-SECRET-url"} {
		if strings.Contains(dump, secret) {
			t.Fatalf("hash input contains %q:\n%s", secret, dump)
		}
	}
	for _, visible := range []string{`"type":"token"`, `"username":"bob"`, "https://***@git.example.com/org/b.git", "sha256:"} {
		if !strings.Contains(dump, visible) {
			t.Errorf("hash input lacks %s:\n%s", visible, dump)
		}
	}
}

func TestSecretDigest(t *testing.T) {
	if secretDigest("") != "" {
		t.Fatal("an empty secret should digest to empty")
	}
	a, b := secretDigest("one"), secretDigest("two")
	if a == b || !strings.HasPrefix(a, "sha256:") || strings.Contains(a, "one") {
		t.Fatalf("digests %q %q", a, b)
	}
}

func TestWriteCanonicalHandlesOddValues(t *testing.T) {
	c := hashFixture()
	when := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	c.Generator.Params = map[string]any{"when": when, "ptr": &when, "anymap": map[any]any{2: "b", 1: "a"}, "nil": nil}
	first := c.Hash()
	if c.Hash() != first {
		t.Fatal("hash of odd values not stable")
	}
	dump := string(c.hashInput())
	if !strings.Contains(dump, "2024-01-02") || !strings.Contains(dump, `"1":"a"`) {
		t.Fatalf("odd values not encoded by content:\n%s", dump)
	}
}

// TestAcquisitionHashIgnoresTheSiteSettings: the site settings change
// Hash but not AcquisitionHash; what decides the trees changes both.
func TestAcquisitionHashIgnoresTheSiteSettings(t *testing.T) {
	base := hashFixture()
	for name, change := range map[string]func(*Config){
		"generator title": func(c *Config) { c.Generator.Title = "New" },
		"generator param": func(c *Config) { c.Generator.Params["themeVariant"] = "light" },
		"taxonomy":        func(c *Config) { c.Generator.Taxonomies["series"] = "series" },
		"output clean":    func(c *Config) { c.Output.Clean = false },
	} {
		c := hashFixture()
		change(c)
		if c.AcquisitionHash() != base.AcquisitionHash() || c.Hash() == base.Hash() {
			t.Errorf("%s: acquisition hash changed %v, hash changed %v", name, c.AcquisitionHash() != base.AcquisitionHash(), c.Hash() != base.Hash())
		}
	}
	for name, change := range map[string]func(*Config){
		"repository paths": func(c *Config) { c.Repositories[0].Paths = []string{"docs", "api"} },
		"build":            func(c *Config) { c.Build.ShallowDepth = 0 },
		"versioning":       func(c *Config) { c.Versioning.Enabled = true },
	} {
		c := hashFixture()
		change(c)
		if c.AcquisitionHash() == base.AcquisitionHash() {
			t.Errorf("%s: acquisition hash unchanged", name)
		}
	}
}
