package config

import (
	"os"
	"path/filepath"
	"strings"
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
		{"the filesystem root", ModeDirect, func(c *Config) { c.Output.Directory = "/" },
			"output.directory", []string{"is a filesystem root"}},
		{"the filesystem root without output.clean", ModeDirect, func(c *Config) { c.Output.Directory = "/"; c.Output.Clean = false },
			"output.directory", []string{"is a filesystem root"}},
		{"the configuration's directory", ModeDirect, func(c *Config) { c.Output.Directory = c.loadState.baseDir },
			"output.directory", []string{"holds the configuration's directory"}},
		{"the configuration's directory without output.clean", ModeDirect, func(c *Config) { c.Output.Directory = c.loadState.baseDir; c.Output.Clean = false },
			"output.directory", []string{"holds the configuration's directory"}},
		{"a parent of the configuration", ModeDirect, func(c *Config) { c.Output.Directory = filepath.Dir(c.loadState.baseDir) },
			"output.directory", []string{"holds the configuration's directory"}},
		{"the directory of the configuration file", ModeDirect, func(c *Config) {
			c.Path = filepath.Join(c.loadState.baseDir, "docweave.yaml")
			c.Output.Directory = c.loadState.baseDir
		}, "output.directory", []string{"holds the configuration file", "docweave.yaml"}},
		{"a directory holding the workspace", ModeDirect, func(c *Config) {
			c.Build.WorkspaceDir = filepath.Join(c.Output.Directory, "work")
		}, "output.directory", []string{"holds the workspace (build.workspace_dir)"}},
		{"a directory holding the repository cache", ModeDaemon, func(c *Config) {
			c.Daemon.Storage.RepoCacheDir = filepath.Join(c.Output.Directory, "repos")
		}, "output.directory", []string{"holds the repository cache"}},
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

func TestDirectoryBesideConfigIsAllowed(t *testing.T) {
	c := validConfig(t, ModeDirect)
	c.Output.Directory = filepath.Join(c.loadState.baseDir, "site")
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
}

// TestOutputDirectoryChecksResolveSymlinks: a link to the configuration's
// directory, or into a parent of the workspace, is refused as the target
// itself would be, also when the link is an ancestor of output.directory.
func TestOutputDirectoryChecksResolveSymlinks(t *testing.T) {
	c := validConfig(t, ModeDirect)
	if err := os.MkdirAll(c.loadState.baseDir, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "site")
	if err := os.Symlink(c.loadState.baseDir, link); err != nil {
		t.Fatal(err)
	}
	c.Output.Directory = link
	err := c.Validate()
	if err == nil || !strings.Contains(err.Error(), "holds the configuration's directory") || !strings.Contains(err.Error(), "symbolic links") {
		t.Fatalf("a link to the configuration's directory: %v", err)
	}
	// A path below a link that does not exist yet is resolved as far as
	// it exists: <link>/.. is the configuration's parent.
	parentLink := filepath.Join(t.TempDir(), "up")
	if err := os.Symlink(filepath.Dir(c.loadState.baseDir), parentLink); err != nil {
		t.Fatal(err)
	}
	c.Output.Directory = filepath.Join(parentLink, "config", "not-yet")
	if err := c.Validate(); err != nil {
		t.Fatalf("a new directory below the configuration's: %v", err)
	}
	c.Output.Directory = parentLink
	if err := c.Validate(); err == nil {
		t.Fatal("a link to the configuration's parent was accepted")
	}
}

func TestOutputDirectoryRefusesTheHomeDirectory(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	c := validConfig(t, ModeDirect)
	for _, dir := range []string{home, filepath.Dir(home)} {
		c.Output.Directory = dir
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "home directory") {
			t.Fatalf("output.directory %s: %v", dir, err)
		}
	}
	c.Output.Directory = filepath.Join(home, "site")
	if err := c.Validate(); err != nil {
		t.Fatalf("a directory inside home: %v", err)
	}
}

// TestSetOutputDirectoryChecksLikeTheFile: -o goes through the same checks,
// and a refused directory leaves the configuration as it was.
func TestSetOutputDirectoryChecksLikeTheFile(t *testing.T) {
	c := validConfig(t, ModeDirect)
	before := c.Output.Directory
	if err := c.SetOutputDirectory(c.loadState.baseDir); err == nil || !strings.Contains(err.Error(), "holds the configuration's directory") {
		t.Fatalf("-o the configuration's directory: %v", err)
	}
	if c.Output.Directory != before {
		t.Fatalf("a refused -o changed output.directory to %s", c.Output.Directory)
	}
	t.Chdir(c.loadState.baseDir[:len(c.loadState.baseDir)-len("/config")])
	if err := c.SetOutputDirectory("out"); err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(c.Output.Directory) || c.Daemon.Storage.OutputDir != c.Output.Directory {
		t.Fatalf("output %s, storage %s", c.Output.Directory, c.Daemon.Storage.OutputDir)
	}
}

func TestOwnedOutputEntries(t *testing.T) {
	for name, want := range map[string]bool{
		"public": true, "content": true, ".docweave": true, "build-report.json": true,
		"public.old": true, ".public-20261123": true, ".site-123": true,
		".public-": false, "docweave.yaml": false, "README.md": false, "publicity": false, "contents": false,
	} {
		if got := IsOwnedOutputEntry(name); got != want {
			t.Errorf("IsOwnedOutputEntry(%q) = %v, want %v", name, got, want)
		}
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
