package metrics

import "github.com/prometheus/client_golang/prometheus"

func (m *Metrics) registerLinkSeries() {
	m.linksChecked = prometheus.NewCounter(prometheus.CounterOpts{
		Namespace: Namespace,
		Name:      "links_checked_total",
		Help:      "Links whose status link verification determined, from the cache or by a request.",
	})
	m.linksBroken = prometheus.NewGauge(prometheus.GaugeOpts{
		Namespace: Namespace,
		Name:      "links_broken",
		Help:      "Broken links found by the most recent link verification run.",
	})
	m.linkCacheHits = prometheus.NewCounter(prometheus.CounterOpts{
		Namespace: Namespace,
		Name:      "link_cache_hits_total",
		Help:      "Link checks answered from the link cache without a request.",
	})
	m.Registry.MustRegister(m.linksChecked, m.linksBroken, m.linkCacheHits)
}

// ObserveLinks records one link verification run: checked links (cached
// ones included), the broken links it found, and how many answers came
// from the cache. Negative counts are treated as zero.
func (m *Metrics) ObserveLinks(checked, broken, cached int) {
	if m == nil {
		return
	}
	m.linksChecked.Add(nonNegative(checked))
	m.linksBroken.Set(nonNegative(broken))
	m.linkCacheHits.Add(nonNegative(cached))
}

// nonNegative guards counters, whose Add panics on a negative value.
func nonNegative(n int) float64 {
	if n < 0 {
		return 0
	}
	return float64(n)
}
