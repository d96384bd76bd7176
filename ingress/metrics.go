package ingress

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the gauges and counters an operator watches to know whether
// the listing is current: how often it is rebuilt, whether the source is
// failing, and what the last published listing contains. A nil *Metrics is
// valid and records nothing, so tests and tools need not register any.
type Metrics struct {
	builds        prometheus.Counter
	changes       prometheus.Counter
	sourceErrors  prometheus.Counter
	sourceHealthy prometheus.Gauge
	hosts         prometheus.Gauge
	paths         *prometheus.GaugeVec
	lastChange    prometheus.Gauge
}

// NewMetrics creates the ingress source metrics and registers them on reg.
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		builds: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "docweave_ingress_projection_builds_total",
			Help: "Projections built from the source, whether or not the listing changed.",
		}),
		changes: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "docweave_ingress_projection_changes_total",
			Help: "Projections that changed the served listing (and its ETag).",
		}),
		sourceErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "docweave_ingress_source_errors_total",
			Help: "Failed attempts to read the source; the last good listing stays served.",
		}),
		sourceHealthy: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "docweave_ingress_source_healthy",
			Help: "1 when the last attempt to read the source succeeded, 0 when it failed.",
		}),
		hosts: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "docweave_ingress_hosts",
			Help: "Hosts in the served listing.",
		}),
		paths: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "docweave_ingress_paths",
			Help: "Paths in the served listing, by reachability.",
		}, []string{"reachability"}),
		lastChange: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "docweave_ingress_last_change_timestamp_seconds",
			Help: "Unix time at which the served listing last changed.",
		}),
	}
	for _, c := range []prometheus.Collector{m.builds, m.changes, m.sourceErrors, m.sourceHealthy, m.hosts, m.paths, m.lastChange} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("register ingress metrics: %w", err)
		}
	}
	return m, nil
}

func (m *Metrics) built(s *Snapshot, changed bool) {
	if m == nil {
		return
	}
	m.builds.Inc()
	m.sourceHealthy.Set(1)
	if !changed {
		return
	}
	m.changes.Inc()
	m.hosts.Set(float64(s.Hosts))
	for reach, n := range s.PathsByReachability {
		m.paths.WithLabelValues(string(reach)).Set(float64(n))
	}
	m.lastChange.Set(float64(s.BuiltAt.UnixNano()) / 1e9)
}

func (m *Metrics) failed() {
	if m == nil {
		return
	}
	m.sourceErrors.Inc()
	m.sourceHealthy.Set(0)
}
