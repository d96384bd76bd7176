package metrics

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestObserveLinks(t *testing.T) {
	m := New()
	m.ObserveLinks(100, 4, 60)
	m.ObserveLinks(50, 1, 50)
	if got := testutil.ToFloat64(m.linksChecked); got != 150 {
		t.Errorf("links_checked_total = %v, want 150", got)
	}
	if got := testutil.ToFloat64(m.linksBroken); got != 1 {
		t.Errorf("links_broken = %v, want 1 (the latest run)", got)
	}
	if got := testutil.ToFloat64(m.linkCacheHits); got != 110 {
		t.Errorf("link_cache_hits_total = %v, want 110", got)
	}
}

func TestObserveLinksIgnoresNegativeCounts(t *testing.T) {
	m := New()
	m.ObserveLinks(-1, -2, -3) // a counter's Add panics on a negative value
	if got := testutil.ToFloat64(m.linksChecked); got != 0 {
		t.Errorf("links_checked_total = %v, want 0", got)
	}
	if got := testutil.ToFloat64(m.linksBroken); got != 0 {
		t.Errorf("links_broken = %v, want 0", got)
	}
}
