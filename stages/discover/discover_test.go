package discover

import (
	"testing"

	"github.com/docweave/docweave/config"
)

func TestContentPathsFollowTheNamespacingRule(t *testing.T) {
	repos := []config.Repository{
		{Name: "api", URL: "https://github.com/org/api.git"},
		{Name: "ops", URL: "https://gitlab.com/org/ops.git"},
	}
	cases := []struct {
		mode      string
		repos     []config.Repository
		wantAPI   string
		wantForge string
	}{
		{"auto", repos, "github/api", "github"},
		{"auto", repos[:1], "api", "github"},
		{"always", repos[:1], "github/api", "github"},
		{"never", repos, "api", "github"},
	}
	for _, c := range cases {
		cfg := &config.Config{Repositories: c.repos}
		cfg.Build.NamespaceForges = c.mode
		got := ContentPaths(cfg)["api"]
		if got.ContentPath != c.wantAPI || got.Forge != c.wantForge {
			t.Errorf("%s with %d repositories: %+v, want path %s", c.mode, len(c.repos), got, c.wantAPI)
		}
	}
}
