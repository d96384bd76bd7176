package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/docweave/docweave/pipeline/natsbroker"
)

// openTestBroker starts an embedded broker with a temporary store and
// provisions what the pipeline needs on it.
func openTestBroker(t *testing.T) *natsbroker.Broker {
	t.Helper()
	b, err := natsbroker.Open(context.Background(), natsbroker.Options{StoreDir: t.TempDir(), Name: t.Name()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	if err := natsbroker.Provision(context.Background(), b.JS, 1); err != nil {
		t.Fatal(err)
	}
	return b
}

// startSharedBroker starts an embedded broker that listens on loopback,
// for tests with several connections (sites, a process that dies), and
// returns its URL with credentials.
func startSharedBroker(t *testing.T) string {
	t.Helper()
	b, err := natsbroker.Open(context.Background(), natsbroker.Options{StoreDir: t.TempDir(), Listen: "127.0.0.1:0", Username: "test", Password: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return strings.Replace(b.ClientURL(), "nats://", "nats://test:test@", 1)
}
