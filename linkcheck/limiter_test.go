package linkcheck

import (
	"context"
	"testing"
	"time"
)

// fixedClock returns a clock that stands still at t until moved.
type fixedClock struct{ t time.Time }

func (c *fixedClock) now() time.Time { return c.t }

func TestLimiterSpacesRequestsPerHost(t *testing.T) {
	clock := &fixedClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l := newHostLimiter(100*time.Millisecond, clock.now)
	a1, a2, a3 := l.reserve("a.example"), l.reserve("A.example"), l.reserve("a.example")
	b1 := l.reserve("b.example")
	if a2.Sub(a1) != 100*time.Millisecond || a3.Sub(a2) != 100*time.Millisecond {
		t.Fatalf("same host slots %v %v %v, want 100ms apart (host names are case-insensitive)", a1, a2, a3)
	}
	if !b1.Equal(clock.t) {
		t.Fatalf("another host waited until %v; hosts must not delay each other", b1)
	}
	clock.t = clock.t.Add(time.Second)
	if got := l.reserve("a.example"); !got.Equal(clock.t) {
		t.Fatalf("after a quiet second the host should start at once, got %v", got)
	}
}

func TestLimiterWithoutDelayNeverWaits(t *testing.T) {
	clock := &fixedClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l := newHostLimiter(0, clock.now)
	for i := 0; i < 3; i++ {
		if got := l.reserve("a.example"); !got.Equal(clock.t) {
			t.Fatalf("slot %d at %v, want now", i, got)
		}
	}
}

func TestLimiterBlockUntilHoldsTheHost(t *testing.T) {
	clock := &fixedClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l := newHostLimiter(0, clock.now)
	until := clock.t.Add(5 * time.Second)
	l.blockUntil("a.example", until)
	l.blockUntil("a.example", clock.t.Add(time.Second)) // an earlier block must not shorten it
	if got := l.reserve("a.example"); !got.Equal(until) {
		t.Fatalf("blocked host got slot %v, want %v", got, until)
	}
	if got := l.reserve("b.example"); !got.Equal(clock.t) {
		t.Fatalf("other host blocked too: %v", got)
	}
}

func TestLimiterWaitHonoursCancellation(t *testing.T) {
	l := newHostLimiter(time.Hour, time.Now)
	_ = l.reserve("a.example")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := l.wait(ctx, "a.example"); err == nil {
		t.Fatal("wait on a cancelled context returned nil")
	}
}
