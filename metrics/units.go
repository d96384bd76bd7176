package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/docweave/docweave/report"
)

// unitRenderBuckets are the durations of one unit's render, in seconds: a
// stored unit is looked up in milliseconds, a large one renders for
// minutes.
var unitRenderBuckets = []float64{0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300}

// unitSeries are the series of rendering in parts.
type unitSeries struct {
	renders    *prometheus.CounterVec
	duration   *prometheus.HistogramVec
	staleUnits prometheus.Gauge
}

func (m *Metrics) registerUnitSeries() {
	m.units.renders = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: Namespace,
		Name:      "unit_renders_total",
		Help:      "Renders of units (repositories, or versions of them) in finished builds, by outcome: rendered, reused (the output was stored under its content address), failed.",
	}, []string{"outcome"})
	m.units.duration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: Namespace,
		Name:      "unit_render_duration_seconds",
		Help:      "Time one unit's render took in a finished build (a reused unit's look-up), by outcome.",
		Buckets:   unitRenderBuckets,
	}, []string{"outcome"})
	m.units.staleUnits = prometheus.NewGauge(prometheus.GaugeOpts{
		Namespace: Namespace,
		Name:      "stale_units",
		Help:      "Units whose render failed in the most recent finished build and whose last good pages are on the site.",
	})
	m.Registry.MustRegister(m.units.renders, m.units.duration, m.units.staleUnits)
	for _, outcome := range []string{report.RenderRendered, report.RenderReused, report.RenderFailed} {
		m.units.renders.WithLabelValues(outcome)
	}
}

// observeUnits records the unit renders of a finished build's report.
func (m *Metrics) observeUnits(rep report.Report) {
	if rep.Units == nil {
		return
	}
	for _, r := range rep.Repositories {
		if r.Render == nil {
			continue
		}
		outcome := r.Render.Outcome
		switch outcome {
		case report.RenderRendered, report.RenderReused, report.RenderFailed:
		default:
			continue
		}
		m.units.renders.WithLabelValues(outcome).Inc()
		m.units.duration.WithLabelValues(outcome).Observe(millisToSeconds(r.Render.DurationMS))
	}
	m.units.staleUnits.Set(float64(rep.Units.Stale))
}
