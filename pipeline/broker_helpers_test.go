package pipeline

import (
	"context"
	"testing"
)

// openTestBroker starts an embedded broker with a temporary store and
// provisions what the pipeline needs on it.
func openTestBroker(t *testing.T) *Broker {
	t.Helper()
	b, err := OpenBroker(context.Background(), BrokerOptions{StoreDir: t.TempDir(), Name: t.Name()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	if err := Provision(context.Background(), b.JS, 1); err != nil {
		t.Fatal(err)
	}
	return b
}
