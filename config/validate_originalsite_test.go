package config

import "testing"

func TestOriginalSiteRules(t *testing.T) {
	site := func(c *Config) *OriginalSite { return &c.Repositories[0].OriginalSite }
	runRuleCases(t, []ruleCase{
		{"relative url", ModeDirect, func(c *Config) {
			*site(c) = OriginalSite{URL: "handbook.example", Paths: map[string]string{"/docs/": "docs/"}}
		},
			"repositories[0].original_site.url", []string{"is not an absolute http(s) URL"}},
		{"url with credentials", ModeDirect, func(c *Config) {
			*site(c) = OriginalSite{URL: "https://me:secret@handbook.example/", Paths: map[string]string{"/": "."}}
		}, "repositories[0].original_site.url", []string{"carries credentials"}},
		{"no paths", ModeDirect, func(c *Config) { *site(c) = OriginalSite{URL: "https://handbook.example/"} },
			"repositories[0].original_site.paths", []string{"is empty"}},
		{"prefix without trailing slash", ModeDirect, func(c *Config) {
			*site(c) = OriginalSite{URL: "https://handbook.example/", Paths: map[string]string{"/docs": "docs/"}}
		}, "repositories[0].original_site.paths./docs", []string{"starting and ending with /"}},
		{"prefix not clean", ModeDirect, func(c *Config) {
			*site(c) = OriginalSite{URL: "https://handbook.example/", Paths: map[string]string{"/a/../b/": "docs/"}}
		}, "repositories[0].original_site.paths./a/../b/", []string{"not a clean URL path prefix"}},
		{"folder escapes", ModeDirect, func(c *Config) {
			*site(c) = OriginalSite{URL: "https://handbook.example/", Paths: map[string]string{"/docs/": "../other/"}}
		}, "repositories[0].original_site.paths./docs/", []string{"not a clean path inside the repository"}},
		{"folder absolute", ModeDirect, func(c *Config) {
			*site(c) = OriginalSite{URL: "https://handbook.example/", Paths: map[string]string{"/docs/": "/docs/"}}
		}, "repositories[0].original_site.paths./docs/", []string{"is absolute"}},
	})
}

func TestOriginalSiteValid(t *testing.T) {
	c := validConfig(t, ModeDirect)
	c.Repositories[0].OriginalSite = OriginalSite{URL: "https://handbook.example/", Paths: map[string]string{"/docs/": "docs/", "/img/": "static/img/", "/": "."}}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
}
