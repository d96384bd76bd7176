package bench

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/docweave/docweave/config"
)

func TestDirectConfigYAMLLoadsAsTheFarm(t *testing.T) {
	f := newTestFarm(t, Size{Repos: 2, Pages: 2})
	dir := t.TempDir()
	cfg, err := config.LoadBytes([]byte(f.directConfigYAML(dir, f.repos)), dir, config.ModeDirect)
	if err != nil {
		t.Fatalf("configuration of a cold build does not load: %v\n%s", err, f.directConfigYAML(dir, f.repos))
	}
	if len(cfg.Repositories) != 2 || !strings.HasPrefix(cfg.Repositories[0].URL, "http://127.0.0.1:") {
		t.Fatalf("repositories %+v", cfg.Repositories)
	}
	if cfg.Build.WorkspaceDir != filepath.Join(dir, "workspace") || cfg.Output.Directory != filepath.Join(dir, "site") || cfg.Build.CloneConcurrency != f.opts.CloneConcurrency {
		t.Fatalf("directories or concurrency not the run's: %+v %+v", cfg.Build, cfg.Output)
	}
}
