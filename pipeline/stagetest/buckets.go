package stagetest

import (
	"context"
	"testing"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/pipeline/natsbroker"
)

// Buckets starts an embedded broker with a temporary store for the test,
// provisions what the pipeline needs on it, and opens the builds' fan-ins
// and the saved state, as a stage's dependencies get them.
func Buckets(t testing.TB) (*buildstate.FanIns, *buildstate.States) {
	t.Helper()
	ctx := context.Background()
	b, err := natsbroker.Open(ctx, natsbroker.Options{StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	if err := natsbroker.Provision(ctx, b.JS, 1); err != nil {
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
	return builds, states
}
