package discovery

import (
	"context"
	"slices"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/giteatest"
)

// TestScanARealGitea lists an organisation of a real Gitea (forge type
// forgejo): the repositories with docs/ are taken with Gitea's own clone
// URLs and branches, the one without docs and the archived one are not;
// then webhook registration creates one push hook per taken repository
// pointing at docweave's webhook server, and a second scan adds none.
func TestScanARealGitea(t *testing.T) {
	g := giteatest.New(t)
	g.CreateOrg(t, "acme")
	urls := map[string]string{}
	for _, name := range []string{"api", "cli", "notes", "old"} {
		urls[name] = g.CreateRepo(t, "acme", name)
	}
	for _, name := range []string{"api", "cli", "old"} {
		g.Push(t, "acme/"+name, map[string]string{"docs/index.md": "# " + name + "\n"}, "docs")
	}
	g.Archive(t, "acme/old")

	cfg := config.Default()
	cfg.Build.MaxRetries = 0
	cfg.Daemon.Webhooks.ForgejoSecret = "gitea-hook-secret"
	cfg.Forges = []config.Forge{g.Forge("acme", "http://127.0.0.1:9/")}
	s := &Scanner{Log: scanner().Log, RegisterWebhooks: true}
	set := s.Scan(context.Background(), &cfg, nil)
	st := set.Forges[0]
	if !st.OK || st.Listed != 4 || len(st.Repositories) != 2 || len(st.Warnings) != 0 {
		t.Fatalf("scan of %s: ok %v (%s), listed %d, taken %+v, warnings %v; want 4 listed, api and cli taken", g, st.OK, st.Error, st.Listed, st.Repositories, st.Warnings)
	}
	for i, name := range []string{"api", "cli"} {
		r := st.Repositories[i]
		if r.FullPath != "acme/"+name || r.URL != urls[name] || r.Branch != "main" || !r.Hook {
			t.Fatalf("repository %d: %+v; want acme/%s at %s on main with its hook", i, r, name, urls[name])
		}
		hooks := g.Hooks(t, r.FullPath)
		if len(hooks) != 1 {
			t.Fatalf("%s has %d hooks, want 1: %+v", r.FullPath, len(hooks), hooks)
		}
		h := hooks[0]
		if h.Type != "gitea" || !h.Active || !slices.Contains(h.Events, "push") ||
			h.Config["url"] != "http://127.0.0.1:9/webhooks/forgejo" || h.Config["content_type"] != "json" {
			t.Fatalf("hook of %s: %+v", r.FullPath, h)
		}
	}
	if hooks := g.Hooks(t, "acme/notes"); len(hooks) != 0 {
		t.Fatalf("a repository that was not taken got hooks: %+v", hooks)
	}

	// A fresh scan (no previous state) finds the hooks registered and
	// adds none.
	set = s.Scan(context.Background(), &cfg, nil)
	if st := set.Forges[0]; !st.OK || len(st.Repositories) != 2 || !st.Repositories[0].Hook {
		t.Fatalf("second scan: %+v", st)
	}
	if hooks := g.Hooks(t, "acme/api"); len(hooks) != 1 {
		t.Fatalf("the second scan added hooks: %+v", hooks)
	}
}
