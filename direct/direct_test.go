package direct

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/internal/gittest"
	_ "github.com/docweave/docweave/stages/all"
)

func testConfig(t *testing.T) *config.Config {
	t.Helper()
	repo := gittest.NewRepo(t, map[string]string{"docs/index.md": "---\ntitle: Hello\n---\nHello.\n"})
	cfg := config.Default()
	cfg.Repositories = []config.Repository{{Name: "hello", URL: repo.FileURL()}}
	cfg.Output.Directory = filepath.Join(t.TempDir(), "site")
	return &cfg
}

// startBroker starts a NATS server with JetStream on a random loopback
// port and a temporary store, shut down when the test ends.
func startBroker(t *testing.T) *server.Server {
	t.Helper()
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoSigs: true, NoLog: true})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats not ready")
	}
	t.Cleanup(ns.Shutdown)
	return ns
}

// TestDirectBuildUsesTheConfiguredBroker: with broker_url set, a direct
// build's messages travel on that broker, under the site's subjects, where
// a subscriber sees them.
func TestDirectBuildUsesTheConfiguredBroker(t *testing.T) {
	ns := startBroker(t)
	sub, err := nats.Connect(ns.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	cfg := testConfig(t)
	cfg.Broker.URL = ns.ClientURL()
	cfg.Site.Name = "handbook"
	finished := make(chan *nats.Msg, 1)
	if _, err := sub.ChanSubscribe("handbook."+events.SubjectBuildFinished, finished); err != nil {
		t.Fatal(err)
	}
	sub.Flush()

	var progress []Progress
	rep, err := Build(context.Background(), cfg, Options{Log: zerolog.Nop(), OnProgress: func(p Progress) { progress = append(progress, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ExitCode() != 0 || rep.ClonedRepositories != 1 {
		t.Fatalf("report %+v", rep)
	}
	select {
	case m := <-finished:
		ev, err := events.Decode(strings.TrimPrefix(m.Subject, "handbook."), m.Data)
		if err != nil || ev.Head().BuildID != rep.BuildID {
			t.Fatalf("subscriber got %v (%v), want build %s", ev, err, rep.BuildID)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the external broker's subscriber saw no build.finished")
	}
	last := progress[len(progress)-1]
	if last.Acquired != 1 || !last.Rendered || last.Pages != rep.RenderedPages {
		t.Fatalf("last progress %+v", last)
	}
}

// TestDirectBuildEmbedsAnInProcessBroker: without broker_url the build runs
// on an embedded broker whose temporary store is removed afterwards.
func TestDirectBuildEmbedsAnInProcessBroker(t *testing.T) {
	cfg := testConfig(t)
	rep, err := Build(context.Background(), cfg, Options{Log: zerolog.Nop()})
	if err != nil || rep.ExitCode() != 0 {
		t.Fatalf("build: %v %+v", err, rep)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(cfg.Output.Directory), ".docweave", "nats-direct-*"))
	if len(left) != 0 {
		t.Fatalf("broker store left behind: %v", left)
	}
}
