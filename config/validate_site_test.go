package config

import (
	"path/filepath"
	"testing"
)

func TestSiteRules(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"versioning strategy enum", ModeDirect, func(c *Config) { c.Versioning.Strategy = "all" },
			"versioning.strategy", []string{`"all" is not allowed; expected one of branches_and_tags, branches_only, tags_only`}},
		{"max_versions_per_repo at least 1", ModeDirect, func(c *Config) { c.Versioning.MaxVersionsPerRepo = 0 },
			"versioning.max_versions_per_repo", []string{"0 is out of range; expected 1 to"}},
		{"bad branch pattern", ModeDirect, func(c *Config) { c.Versioning.BranchPatterns = []string{"release-[0-9"} },
			"versioning.branch_patterns[0]", []string{"not a valid glob pattern"}},
		{"empty tag pattern", ModeDirect, func(c *Config) { c.Versioning.TagPatterns = []string{"v*", ""} },
			"versioning.tag_patterns[1]", []string{"is empty"}},
		{"base_url without scheme", ModeDirect, func(c *Config) { c.Generator.BaseURL = "docs.example.com" },
			"generator.base_url", []string{`"docs.example.com" is neither an absolute http(s) URL nor a path starting with /`}},
		{"base_url with other scheme", ModeDirect, func(c *Config) { c.Generator.BaseURL = "ftp://docs.example.com/" },
			"generator.base_url", []string{"neither an absolute http(s) URL"}},
		{"unsafe taxonomy plural", ModeDirect, func(c *Config) { c.Generator.Taxonomies["team"] = "our teams" },
			"generator.taxonomies.team", []string{`plural name "our teams" is not safe`}},
		{"unsafe taxonomy singular", ModeDirect, func(c *Config) { c.Generator.Taxonomies[".x"] = "xs" },
			"generator.taxonomies..x", []string{`singular name ".x" is not safe`}},
		{"known string param with wrong type", ModeDirect, func(c *Config) { c.Generator.Params = map[string]any{"themeVariant": 3} },
			"generator.params.themeVariant", []string{"got number 3; expected a string"}},
		{"theme variant the theme does not have", ModeDirect, func(c *Config) { c.Generator.Params = map[string]any{"themeVariant": "relearn-dark"} },
			"generator.params.themeVariant", []string{`"relearn-dark" is not a variant`, "auto, light, dark"}},
		{"reserved param", ModeDirect, func(c *Config) { c.Generator.Params = map[string]any{"Docweave": map[string]any{}} },
			"generator.params.Docweave", []string{"reserved for docweave's own use"}},
		{"known bool param with wrong type", ModeDirect, func(c *Config) { c.Generator.Params = map[string]any{"disablesearch": "yes"} },
			"generator.params.disablesearch", []string{`got string "yes"; expected a boolean`}},
		{"empty output directory", ModeDirect, func(c *Config) { c.Output.Directory = "" },
			"output.directory", []string{"is empty"}},
		{"cleaning the filesystem root", ModeDirect, func(c *Config) { c.Output.Directory = "/" },
			"output.directory", []string{"filesystem root and output.clean is true"}},
		{"cleaning the configuration's directory", ModeDirect, func(c *Config) { c.Output.Directory = c.loadState.baseDir },
			"output.directory", []string{"contains the configuration's directory"}},
		{"cleaning a parent of the configuration", ModeDirect, func(c *Config) { c.Output.Directory = filepath.Dir(c.loadState.baseDir) },
			"output.directory", []string{"contains the configuration's directory"}},
	})
}

func TestSiteRulesAcceptValidValues(t *testing.T) {
	c := validConfig(t, ModeDirect)
	c.Generator.BaseURL = "https://docs.example.com/handbook/"
	c.Generator.Params = map[string]any{"themeVariant": "dark", "disableSearch": true, "custom": []any{1}}
	c.Generator.Taxonomies["series"] = "series"
	c.Versioning.Strategy = "tags_only"
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	c.Generator.BaseURL = "/docs/"
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestCleanDirectoryBesideConfigIsAllowed(t *testing.T) {
	c := validConfig(t, ModeDirect)
	c.Output.Directory = filepath.Join(c.loadState.baseDir, "site")
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	c.Output.Directory = c.loadState.baseDir
	c.Output.Clean = false
	if err := c.Validate(); err != nil {
		t.Fatalf("without output.clean the configuration's directory is allowed: %v", err)
	}
}

func TestIsWithin(t *testing.T) {
	cases := []struct {
		path, dir string
		want      bool
	}{
		{"/a/b", "/a/b", true},
		{"/a/b/c", "/a/b", true},
		{"/a/bc", "/a/b", false},
		{"/a", "/a/b", false},
		{"/a/..b", "/a", true},
	}
	for _, tc := range cases {
		if got := isWithin(tc.path, tc.dir); got != tc.want {
			t.Errorf("isWithin(%q, %q) = %v, want %v", tc.path, tc.dir, got, tc.want)
		}
	}
}
