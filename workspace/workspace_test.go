package workspace

import (
	"path/filepath"
	"testing"

	"github.com/docweave/docweave/config"
)

func TestLayoutDefaultsAndKeys(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	l := For(&config.Config{Output: config.Output{Directory: out}})
	if l.Root != filepath.Join(filepath.Dir(out), ".docweave") {
		t.Fatalf("root %s", l.Root)
	}
	if l.RepoCache != filepath.Join(l.Root, "repos") {
		t.Fatalf("cache %s", l.RepoCache)
	}
	d, err := l.Dir(FreshKey("b1", "api"))
	if err != nil || d != filepath.Join(l.Root, "checkouts", "b1+api") {
		t.Fatalf("fresh dir %s %v", d, err)
	}
	d, err = l.Dir(CacheKey("api"))
	if err != nil || d != filepath.Join(l.RepoCache, "api") {
		t.Fatalf("cache dir %s %v", d, err)
	}
	for _, bad := range []string{"checkouts/../../etc", "/etc/passwd", "other/x", "cache/../x"} {
		if _, err := l.Dir(bad); err == nil {
			t.Errorf("key %q accepted", bad)
		}
	}
}

func TestLayoutHonoursConfiguredDirectories(t *testing.T) {
	cfg := &config.Config{}
	cfg.Build.WorkspaceDir = "/w"
	cfg.Daemon.Storage.RepoCacheDir = "/cache"
	l := For(cfg)
	if l.Root != "/w" || l.RepoCache != "/cache" || l.Artifacts() != "/w/artifacts" {
		t.Fatalf("layout %+v", l)
	}
}
