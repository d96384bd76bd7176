package discover

import (
	"context"
	"testing"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
)

// testBuckets opens what the discover stage needs from a real embedded
// NATS server with its streams and buckets provisioned: the builds and
// state buckets, and a local artifact store.
func testBuckets(t *testing.T) (*buildstate.FanIns, *buildstate.States, *artifact.Local) {
	t.Helper()
	ctx := context.Background()
	b, err := pipeline.OpenBroker(ctx, pipeline.BrokerOptions{StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	if err := pipeline.Provision(ctx, b.JS, 1); err != nil {
		t.Fatal(err)
	}
	builds, err := buildstate.OpenFanIns(ctx, b.JS)
	if err != nil {
		t.Fatal(err)
	}
	states, err := buildstate.OpenStates(ctx, b.JS)
	if err != nil {
		t.Fatal(err)
	}
	store, err := artifact.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return builds, states, store
}
