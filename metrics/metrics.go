// Package metrics holds the Prometheus series an operator alerts on when
// docweave runs as a daemon: builds by outcome, build and stage durations,
// failed repositories, skipped builds, per-stage message handling, link
// checking and per-stage consumer lag.
//
// Every series lives in the Metrics value's own registry, never in the
// process-wide default one, so two daemons (or two tests) in one process do
// not share counters, and the admin server exports exactly what was
// registered here. The series and example alerts are documented in
// docs/daemon-admin.md; names are part of the public interface and are not
// renamed.
package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/docweave/docweave/report"
)

// Namespace prefixes every docweave series so they are easy to find among
// the Go and process series of the same scrape.
const Namespace = "docweave"

// Metrics records what the daemon does. A nil *Metrics records nothing, so
// code paths that run without a daemon (tests, direct builds) can hold one
// without checks.
type Metrics struct {
	// Registry holds every series below plus the Go runtime and process
	// collectors; the admin server serves it at /metrics.
	Registry *prometheus.Registry

	buildsTotal         *prometheus.CounterVec
	buildDuration       prometheus.Histogram
	stageDuration       *prometheus.HistogramVec
	failedRepositories  prometheus.Gauge
	renderedPages       prometheus.Gauge
	lastSuccess         prometheus.Gauge
	buildsSkipped       *prometheus.CounterVec
	stageMessages       *prometheus.CounterVec
	stageHandle         *prometheus.HistogramVec
	linksChecked        prometheus.Counter
	linksBroken         prometheus.Gauge
	linkCacheHits       prometheus.Counter
	consumerLag         *lagCollector
	processes           *processesCollector
	outcomeLabels       *labelLimiter
	stageLabels         *labelLimiter
	skipReasonLabels    *labelLimiter
	deliveryOutcomeLabs *labelLimiter
	units               unitSeries
}

// New returns a Metrics with every series registered in a fresh registry,
// together with the Go runtime and process collectors.
func New() *Metrics {
	m := &Metrics{
		Registry:            prometheus.NewRegistry(),
		outcomeLabels:       newLabelLimiter(maxLabelValues),
		stageLabels:         newLabelLimiter(maxLabelValues),
		skipReasonLabels:    newLabelLimiter(maxLabelValues),
		deliveryOutcomeLabs: newLabelLimiter(maxLabelValues),
		consumerLag:         newLagCollector(),
		processes:           newProcessesCollector(),
	}
	m.registerBuildSeries()
	m.registerDeliverySeries()
	m.registerLinkSeries()
	m.registerUnitSeries()
	m.Registry.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.consumerLag,
		m.processes,
	)
	// Known outcomes start at zero so that rate() and increase() see the
	// first build instead of a series appearing out of nowhere.
	for _, outcome := range []string{report.OutcomeSuccess, report.OutcomePartial, report.OutcomeFailed} {
		m.buildsTotal.WithLabelValues(m.outcomeLabels.value(outcome))
	}
	return m
}
