package hotpaths

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docweave/docweave/config"
)

// writeConfig writes a daemon configuration of repos repositories, the
// size of a large documentation platform, and returns its path.
func writeConfig(tb testing.TB, repos int) string {
	tb.Helper()
	var b strings.Builder
	b.WriteString("repositories:\n")
	for r := 0; r < repos; r++ {
		fmt.Fprintf(&b, "  - name: repo%02d\n    url: https://git.example.com/org/repo%02d.git\n    branch: main\n    paths: [docs]\n", r, r)
	}
	b.WriteString("build:\n  clone_concurrency: 8\n  workspace_dir: ./work\n")
	b.WriteString("daemon:\n  sync:\n    schedule: \"*/5 * * * *\"\n  http:\n    docs_port: 9080\n")
	b.WriteString("generator:\n  title: Platform docs\n  base_url: https://docs.example.com/\n  params:\n    accent: teal\n")
	b.WriteString("output:\n  directory: ./site\n")
	path := filepath.Join(tb.TempDir(), "docweave.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

func TestConfigFixtureLoads(t *testing.T) {
	cfg, err := config.Load(writeConfig(t, 50), config.ModeDaemon)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Repositories) != 50 || cfg.Build.CloneConcurrency != 8 || cfg.Generator.Title != "Platform docs" {
		t.Fatalf("fixture loaded as %d repositories, concurrency %d, title %q", len(cfg.Repositories), cfg.Build.CloneConcurrency, cfg.Generator.Title)
	}
}

// BenchmarkConfigLoad50Repositories reads, defaults, expands and validates
// a 50-repository configuration, as every command and every config reload
// does.
func BenchmarkConfigLoad50Repositories(b *testing.B) {
	path := writeConfig(b, 50)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := config.Load(path, config.ModeDaemon); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConfigHash is the configuration hash the skip decision compares
// on every daemon trigger.
func BenchmarkConfigHash(b *testing.B) {
	cfg, err := config.Load(writeConfig(b, 50), config.ModeDaemon)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if cfg.Hash() == "" {
			b.Fatal("empty hash")
		}
	}
}
