package linkcheck

import (
	"context"
	"testing"
	"time"
)

// TestHistoryCountsEachBuildOnce: verifying the same build again (a
// redelivery) does not count a failure twice; the next build does.
func TestHistoryCountsEachBuildOnce(t *testing.T) {
	srv := startVerdictServer(t)
	site := testSite(t, srv.URL)
	cache, _ := openTestCache(t)
	clock := &movableClock{t: time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)}
	v := NewVerifier(verifyOptions(t, clock), cache)
	first := clock.t
	failures := func(build string) (int, *History) {
		clock.advance(time.Minute)
		res, err := v.Verify(context.Background(), site, build)
		if err != nil {
			t.Fatal(err)
		}
		h := targetByURL(t, res, "/docs/handbook/nope/").History
		return h.Failures, h
	}
	if n, _ := failures("b1"); n != 1 {
		t.Fatalf("b1: %d", n)
	}
	if n, _ := failures("b1"); n != 1 {
		t.Fatalf("b1 again: %d, want still 1", n)
	}
	n, h := failures("b2")
	if n != 2 || !h.FirstSeen.Equal(first.Add(time.Minute)) || !h.LastSeen.Equal(clock.t) {
		t.Fatalf("b2: %+v", h)
	}
}
