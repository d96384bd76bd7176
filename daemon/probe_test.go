package daemon

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/pipeline"
)

func portOf(t *testing.T, clientURL string) int {
	t.Helper()
	u, err := url.Parse(clientURL)
	if err != nil {
		t.Fatal(err)
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil {
		t.Fatal(err)
	}
	return port
}

// An operator runs NATS with JetStream where the embedded broker would
// listen (the spec's default broker URL) and sets no broker_url: the
// daemon uses that server instead of failing on the taken port.
func TestDaemonUsesTheNATSServerAlreadyOnTheDefaultPort(t *testing.T) {
	ctx := context.Background()
	external, err := pipeline.OpenBroker(ctx, pipeline.BrokerOptions{StoreDir: t.TempDir(), Listen: true, ListenHost: "127.0.0.1", ListenPort: -1, Name: "operators-nats"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(external.Close)
	repo := gittest.NewRepo(t, map[string]string{"docs/index.md": "# Hi\n"})
	cfg := daemonConfig(t, repo.FileURL())
	cfg.Daemon.EmbeddedBroker.Port = portOf(t, external.ClientURL())
	d := startDaemon(t, cfg)
	eventually(t, "/ready", func() bool { code, _ := get(t, "http://"+d.addrs.Admin+"/ready"); return code == 200 })
	// The pipeline's stream lives on the operator's server.
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if _, err := external.JS.Stream(sctx, pipeline.StreamName); err != nil {
		t.Fatalf("the daemon did not use the server on the default port: %v", err)
	}
}

// A NATS server without JetStream on that port cannot hold the pipeline:
// the daemon refuses to start and says what to do.
func TestDaemonRefusesANATSServerWithoutJetStream(t *testing.T) {
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(5 * time.Second) {
		t.Fatal("plain NATS server not ready")
	}
	t.Cleanup(ns.Shutdown)
	cfg := daemonConfig(t, "file:///nowhere")
	cfg.Daemon.EmbeddedBroker.Port = portOf(t, ns.ClientURL())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = Run(ctx, cfg, Options{Log: zerolog.Nop()})
	if err == nil || !strings.Contains(err.Error(), "no JetStream") || !strings.Contains(err.Error(), "broker_url") {
		t.Fatalf("got %v, want a refusal naming JetStream and broker_url", err)
	}
}
