package daemon

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/pipeline/natsbroker"
)

// candidate is one process campaigning for the lease.
type candidate struct {
	leading atomic.Bool
	cancel  context.CancelFunc
	done    chan struct{}
}

func campaign(t *testing.T, b *natsbroker.Broker, name string) *candidate {
	t.Helper()
	kv, err := openControlBucket(context.Background(), b.JS, 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &candidate{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(c.done)
		runLease(ctx, kv, name, zerolog.Nop(), func() { c.leading.Store(true) }, func() { c.leading.Store(false) })
	}()
	t.Cleanup(func() { cancel(); <-c.done })
	return c
}

// Two processes campaign: exactly one leads; when it stops, it hands the
// lease back and the other leads at its next attempt, without waiting for
// the lease to expire; a lease taken over behind a leader's back deposes it.
func TestLeaseElectsOneAndHandsOver(t *testing.T) {
	b, err := natsbroker.Open(context.Background(), natsbroker.Options{StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	a, c := campaign(t, b, "a"), campaign(t, b, "c")
	waitFor(t, "a leader", func() bool { return a.leading.Load() != c.leading.Load() })
	first, second := a, c
	if c.leading.Load() {
		first, second = c, a
	}
	time.Sleep(3 * leaseRenew) // renewals keep the same leader
	if !first.leading.Load() || second.leading.Load() {
		t.Fatal("leadership changed while the leader kept renewing")
	}
	start := time.Now()
	first.cancel()
	<-first.done
	waitFor(t, "the other to take over", func() bool { return second.leading.Load() })
	if took := time.Since(start); took >= leaseTTL {
		t.Errorf("takeover after a clean stop took %s; the lease was not handed back", took)
	}

	// Someone else writes the key: the leader notices at its next renewal.
	kv, err := openControlBucket(context.Background(), b.JS, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Put(context.Background(), leaderKey, []byte("intruder")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the deposed leader to step down", func() bool { return !second.leading.Load() })
}
