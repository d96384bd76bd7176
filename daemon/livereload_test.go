package daemon

import (
	"strings"
	"testing"

	"github.com/docweave/docweave/internal/gittest"
)

// The live-reload server is optional: turned off, the daemon binds no
// port for it and its pages carry no reload client.
func TestDaemonWithoutLiveReload(t *testing.T) {
	repo := gittest.NewRepo(t, map[string]string{"docs/guide.md": "---\ntitle: Guide\n---\nText.\n"})
	cfg := daemonConfig(t, repo.FileURL())
	cfg.Daemon.HTTP.LiveReloadEnabled = false
	if got := EnabledServers(cfg); len(got) != 3 || strings.Contains(strings.Join(got, ","), ServerLiveReload) {
		t.Fatalf("enabled servers %v", got)
	}
	d := startDaemon(t, cfg)
	if d.addrs.LiveReload != "" {
		t.Fatalf("a live-reload server listens at %s", d.addrs.LiveReload)
	}
	eventually(t, "/ready", func() bool { code, _ := get(t, "http://"+d.addrs.Admin+"/ready"); return code == 200 })
	code, body := get(t, "http://"+d.addrs.Docs+"/docs/handbook/guide/")
	if code != 200 || !strings.Contains(body, "Text.") {
		t.Fatalf("docs: %d", code)
	}
	if strings.Contains(body, "livereload") {
		t.Fatal("a page carries the live-reload client with live reload off")
	}
	if _, err := bindings(cfg, []string{ServerLiveReload}); err == nil || !strings.Contains(err.Error(), "livereload_enabled") {
		t.Fatalf("asking for the live-reload server while it is off: %v", err)
	}
}
