package daemon

import (
	"context"
	"testing"
	"time"
)

// TestMaintenanceRunsOnlyWithNoBuildInFlight: the coordinator's
// maintenance (pruning the broker's object store) does not run while a
// build runs, and a build asked for while it runs waits for it, then
// starts by itself.
func TestMaintenanceRunsOnlyWithNoBuildInFlight(t *testing.T) {
	c, g, finished := newCoordinatorFixture(t)
	ctx := context.Background()
	if _, _, err := c.Trigger(ctx, "startup", nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the build to start", func() bool { return g.count() == 1 })
	if c.Maintain(func() { t.Error("maintenance ran while a build was in flight") }) {
		t.Fatal("Maintain reported it ran while a build was in flight")
	}
	g.release <- struct{}{}
	<-finished
	waitFor(t, "idle", c.Idle)

	inMaintenance, release := make(chan struct{}), make(chan struct{})
	ran := make(chan bool, 1)
	go func() { ran <- c.Maintain(func() { close(inMaintenance); <-release }) }()
	<-inMaintenance
	if c.Idle() {
		t.Error("the coordinator says it is idle while it maintains")
	}
	id, coalesced, err := c.Trigger(ctx, "webhook", nil)
	if err != nil || !coalesced {
		t.Fatalf("a trigger during maintenance: %v coalesced=%v, want it held back", err, coalesced)
	}
	time.Sleep(300 * time.Millisecond) // a build requested now would reach the stand-in pipeline
	if n := g.count(); n != 1 {
		t.Fatalf("%d builds requested during maintenance, want none after the first", n-1)
	}
	if b, _ := c.Build(id); b.State != StateQueued {
		t.Fatalf("the held-back build is %s, want %s", b.State, StateQueued)
	}
	if c.Maintain(func() { t.Error("a second maintenance ran beside the first") }) {
		t.Fatal("two maintenances at once")
	}
	close(release)
	if !<-ran {
		t.Fatal("Maintain on an idle coordinator did not run")
	}
	waitFor(t, "the held-back build to start", func() bool { return g.count() == 2 })
	g.release <- struct{}{}
	if b := <-finished; b.ID != id {
		t.Fatalf("finished %s, want the held-back build %s", b.ID, id)
	}
}
