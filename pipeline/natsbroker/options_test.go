package natsbroker

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nats-io/nats.go"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/workspace"
)

func siteConfig(t *testing.T) *config.Config {
	t.Helper()
	cfg := config.Default()
	cfg.Mode = config.ModeDaemon
	cfg.Output.Directory = filepath.Join(t.TempDir(), "site")
	cfg.Site.Name = "handbook"
	return &cfg
}

// The daemon's embedded broker opens no port unless told to.
func TestDaemonBrokerIsInProcessByDefault(t *testing.T) {
	cfg := siteConfig(t)
	opts, err := OptionsFor(cfg, RoleDaemon, "test")
	if err != nil {
		t.Fatal(err)
	}
	if opts.Listen != "" || opts.URL != "" || opts.Site != "handbook" {
		t.Fatalf("options %+v", opts)
	}
	b, err := Open(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.ClientURL() != "" || b.Shared() {
		t.Fatalf("in-process broker listens at %q", b.ClientURL())
	}
	if _, err := os.Stat(filepath.Join(opts.StoreDir, CredentialsFileName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("credentials written for a broker that does not listen: %v", err)
	}
	if _, err := OptionsFor(cfg, RoleJoin, "stage"); !errors.Is(err, ErrNoSharedBroker) {
		t.Fatalf("a stage process joined an in-process broker: %v", err)
	}
}

// A listening embedded broker requires credentials: generated ones are
// kept with mode 0600, reused at the next start, and found by a process
// of the same configuration; a local process without them is refused.
func TestListeningEmbeddedBrokerRequiresCredentials(t *testing.T) {
	cfg := siteConfig(t)
	cfg.Broker.Embedded.Listen = "127.0.0.1:0"
	opts, err := OptionsFor(cfg, RoleDaemon, "daemon")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(workspace.For(cfg).Broker(), CredentialsFileName)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Fatalf("credentials mode %04o, want 0600", info.Mode().Perm())
	}
	if opts.Username != EmbeddedUser || len(opts.Password) < 32 {
		t.Fatalf("generated credentials %q / %d characters", opts.Username, len(opts.Password))
	}
	again, err := OptionsFor(cfg, RoleDaemon, "daemon")
	if err != nil || again.Password != opts.Password {
		t.Fatalf("credentials not reused at the next start (%v)", err)
	}
	b, err := Open(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	url := b.ClientURL()
	if url == "" || !b.Shared() {
		t.Fatal("the embedded broker does not listen")
	}
	if err := RecordEmbeddedURL(cfg, url); err != nil {
		t.Fatal(err)
	}

	// Anyone on the machine without the credentials is refused.
	if nc, err := nats.Connect(url); err == nil {
		nc.Close()
		t.Fatal("a local process connected without credentials")
	} else if !strings.Contains(strings.ToLower(err.Error()), "authorization") {
		t.Fatalf("refused for another reason: %v", err)
	}
	if nc, err := nats.Connect(url, nats.UserInfo(EmbeddedUser, "guess")); err == nil {
		nc.Close()
		t.Fatal("a wrong password was accepted")
	}

	// A stage process of the same configuration joins with what the
	// daemon wrote, and meets it in the same scope.
	join, err := OptionsFor(cfg, RoleJoin, "stage")
	if err != nil {
		t.Fatal(err)
	}
	if join.URL != url || join.Password != opts.Password || join.Site != "handbook" {
		t.Fatalf("join options %+v", join)
	}
	stage, err := Open(context.Background(), join)
	if err != nil {
		t.Fatal(err)
	}
	defer stage.Close()
	if err := Provision(context.Background(), b.JS, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := stage.JS.Stream(context.Background(), StreamName); err != nil {
		t.Fatalf("the joining process does not see the site's stream: %v", err)
	}

	// A credentials file others can read is refused, not used.
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OptionsFor(cfg, RoleJoin, "stage"); err == nil || !strings.Contains(err.Error(), "0600") {
		t.Fatalf("world-readable credentials: %v", err)
	}
}

// Configured credentials are what the embedded broker requires, and the
// file then keeps the address only.
func TestListeningEmbeddedBrokerWithConfiguredCredentials(t *testing.T) {
	cfg := siteConfig(t)
	cfg.Broker.Embedded.Listen = "127.0.0.1:0"
	cfg.Broker.Username, cfg.Broker.Password = "ops", "chosen-secret"
	opts, err := OptionsFor(cfg, RoleDaemon, "daemon")
	if err != nil || opts.Username != "ops" || opts.Password != "chosen-secret" {
		t.Fatalf("options %+v, %v", opts, err)
	}
	b, err := Open(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := RecordEmbeddedURL(cfg, b.ClientURL()); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(workspace.For(cfg).Broker(), CredentialsFileName))
	if err != nil || strings.Contains(string(data), "chosen-secret") {
		t.Fatalf("file %s (%v)", data, err)
	}
	nc, err := nats.Connect(b.ClientURL(), nats.UserInfo("ops", "chosen-secret"))
	if err != nil {
		t.Fatalf("configured credentials refused: %v", err)
	}
	nc.Close()
}

// A second embedded broker on a taken address says so.
func TestEmbeddedBrokerAddressInUse(t *testing.T) {
	first, err := Open(context.Background(), Options{StoreDir: t.TempDir(), Listen: "127.0.0.1:0", Username: "u", Password: "p"})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	addr := strings.TrimPrefix(first.ClientURL(), "nats://")
	_, err = Open(context.Background(), Options{StoreDir: t.TempDir(), Listen: addr, Username: "u", Password: "p"})
	if err == nil || !strings.Contains(err.Error(), "address already in use") || !strings.Contains(err.Error(), addr) {
		t.Fatalf("second broker on %s: %v", addr, err)
	}
}

func TestExternalOptionsCarryCredentialsAndTLS(t *testing.T) {
	cfg := siteConfig(t)
	cfg.Broker.URL = "tls://nats-1:4222,tls://nats-2:4222"
	cfg.Broker.Username, cfg.Broker.Password = "u", "p"
	cfg.Broker.TLS.CAFile = "/etc/ca.pem"
	for _, role := range []Role{RoleDaemon, RoleDirect, RoleJoin} {
		opts, err := OptionsFor(cfg, role, "x")
		if err != nil || opts.URL != cfg.Broker.URL || opts.Username != "u" || opts.TLS.CAFile != "/etc/ca.pem" || opts.Listen != "" || opts.Site != "handbook" {
			t.Fatalf("role %d: %+v, %v", role, opts, err)
		}
	}
}
