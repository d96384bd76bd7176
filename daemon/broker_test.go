package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/internal/natstest"
	"github.com/docweave/docweave/pipeline/natsbroker"
	"github.com/docweave/docweave/workspace"
)

// By default the daemon's broker is in-process: no port, no credentials
// file, nothing another process on the machine could reach.
func TestDaemonBrokerIsClosedByDefault(t *testing.T) {
	repo := gittest.NewRepo(t, map[string]string{"docs/guide.md": "# Guide\n"})
	cfg := daemonConfig(t, repo.FileURL())
	d := startDaemon(t, cfg)
	if d.addrs.Broker != "" {
		t.Fatalf("the default daemon's broker listens at %s", d.addrs.Broker)
	}
	eventually(t, "/ready", func() bool { code, _ := get(t, "http://"+d.addrs.Admin+"/ready"); return code == 200 })
	if _, err := os.Stat(filepath.Join(workspace.For(cfg).Broker(), natsbroker.CredentialsFileName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("credentials file for a broker nobody can reach: %v", err)
	}
}

// With broker.embedded.listen the embedded broker takes network clients,
// with credentials only: a local process without them is refused, and a
// `serve` process of the same configuration on the same machine joins
// with what the daemon wrote into the workspace and serves the site it
// fetches through the broker.
func TestListeningDaemonBrokerRequiresCredentials(t *testing.T) {
	repo := gittest.NewRepo(t, map[string]string{"docs/guide.md": "---\ntitle: Guide\n---\nShared text.\n"})
	cfg := daemonConfig(t, repo.FileURL())
	cfg.Broker.Embedded.Listen = "127.0.0.1:0"
	d := startDaemon(t, cfg)
	if d.addrs.Broker == "" {
		t.Fatal("the embedded broker does not listen")
	}
	if nc, err := nats.Connect(d.addrs.Broker, nats.Timeout(5*time.Second)); err == nil {
		nc.Close()
		t.Fatal("a process without credentials connected to the daemon's broker")
	} else if !strings.Contains(strings.ToLower(err.Error()), "authorization") {
		t.Fatalf("refused for another reason: %v", err)
	}
	info, err := os.Stat(filepath.Join(workspace.For(cfg).Broker(), natsbroker.CredentialsFileName))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("generated credentials: %v, mode %v", err, info.Mode())
	}

	// A second process of the site, on the same machine, with its own
	// output directory (machine-local paths do not make another site).
	serveCfg := *cfg
	serveCfg.Output.Directory = filepath.Join(t.TempDir(), "replica")
	serveCfg.Daemon.Storage.OutputDir = serveCfg.Output.Directory
	serveCfg.Build.WorkspaceDir = workspace.For(cfg).Root // the daemon's workspace, where its credentials are
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan Addresses, 1)
	done := make(chan error, 1)
	go func() {
		done <- RunServers(ctx, &serveCfg, []string{ServerDocs}, Options{Log: zerolog.Nop(), Ready: func(a Addresses) { ready <- a }})
	}()
	var docs string
	select {
	case a := <-ready:
		docs = a.Docs
		t.Cleanup(func() { cancel(); <-done })
	case err := <-done:
		cancel()
		t.Fatalf("serve did not join the daemon's broker: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not start")
	}
	eventually(t, "the replica to serve the site", func() bool {
		code, body := get(t, "http://"+docs+"/docs/handbook/guide/")
		return code == 200 && strings.Contains(body, "Shared text.")
	})
}

// A daemon whose embedded broker address is taken (by another site's
// daemon, say) refuses to start, naming its site and the address.
func TestDaemonRefusesATakenBrokerAddress(t *testing.T) {
	first := daemonConfig(t, gittest.NewRepo(t, map[string]string{"docs/a.md": "# A\n"}).FileURL())
	first.Broker.Embedded.Listen = "127.0.0.1:0"
	a := startDaemon(t, first)
	addr := strings.TrimPrefix(a.addrs.Broker, "nats://")

	second := daemonConfig(t, gittest.NewRepo(t, map[string]string{"docs/b.md": "# B\n"}).FileURL())
	second.Site.Name = "beta"
	second.Broker.Embedded.Listen = addr
	err := Run(context.Background(), second, Options{Log: zerolog.Nop()})
	if err == nil || !strings.Contains(err.Error(), `site "beta"`) || !strings.Contains(err.Error(), addr) || !strings.Contains(err.Error(), "address already in use") {
		t.Fatalf("second daemon on %s: %v", addr, err)
	}
}

// A daemon refuses a site name that a live process of another
// configuration holds on the shared broker, naming the broker and the
// site; a record left by a process that died does not hold it back.
func TestDaemonRefusesASiteNameInUse(t *testing.T) {
	cluster := natstest.StartCluster(t, 1)
	shared := func(repoText string) *config.Config {
		cfg := daemonConfig(t, gittest.NewRepo(t, map[string]string{"docs/x.md": repoText}).FileURL())
		cfg.Broker.URL = cluster.URLs()
		cfg.Site.Name = "docs"
		return cfg
	}
	first := shared("# first\n")
	startDaemon(t, first)

	err := Run(context.Background(), shared("# second\n"), Options{Log: zerolog.Nop()})
	if err == nil || !strings.Contains(err.Error(), `site "docs" is already in use on broker `+cluster.URLs()) ||
		!strings.Contains(err.Error(), "another configuration") || !strings.Contains(err.Error(), "site.name") {
		t.Fatalf("a second configuration under the same site name: %v", err)
	}

	// Another site name on the same broker starts.
	other := shared("# other\n")
	other.Site.Name = "other-docs"
	startDaemon(t, other)
}

func TestStaleProcessRecordDoesNotHoldTheSite(t *testing.T) {
	cluster := natstest.StartCluster(t, 1)
	b, err := natsbroker.Open(context.Background(), natsbroker.Options{URL: cluster.URLs(), Site: "docs"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	kv, err := openControlBucket(context.Background(), b.JS, 1)
	if err != nil {
		t.Fatal(err)
	}
	dead, _ := json.Marshal(processRecord{Role: roleDaemon, ConfigHash: "another-configuration", Host: "gone", PID: 1, StartedAt: time.Now()})
	if _, err := kv.Put(context.Background(), processKeyPrefix+"dead", dead); err != nil {
		t.Fatal(err)
	}
	cfg := daemonConfig(t, gittest.NewRepo(t, map[string]string{"docs/x.md": "# x\n"}).FileURL())
	cfg.Broker.URL = cluster.URLs()
	cfg.Site.Name = "docs"
	start := time.Now()
	startDaemon(t, cfg)
	if waited := time.Since(start); waited < leaseRenew {
		t.Fatalf("started after %s without watching the record for a renewal", waited)
	}
}

// The daemon's servers listen where daemon.http says.
func TestServersListenOnTheirBindAddresses(t *testing.T) {
	repo := gittest.NewRepo(t, map[string]string{"docs/guide.md": "# Guide\n"})
	cfg := daemonConfig(t, repo.FileURL())
	cfg.Daemon.HTTP.BindAddress = "127.0.0.1"
	cfg.Daemon.HTTP.AdminBindAddress = "127.0.0.2"
	d := startDaemon(t, cfg)
	for name, addr := range map[string]string{"docs": d.addrs.Docs, "webhook": d.addrs.Webhook, "livereload": d.addrs.LiveReload, "admin": d.addrs.Admin} {
		host, _, err := net.SplitHostPort(addr)
		want := "127.0.0.1"
		if name == "admin" {
			want = "127.0.0.2"
		}
		if err != nil || host != want {
			t.Errorf("%s server listens on %s, want host %s", name, addr, want)
		}
	}
}
