package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/docweave/docweave/report"
)

// Histogram buckets, in seconds. A whole build of many repositories takes
// seconds to tens of minutes; one stage of it, tens of milliseconds to
// minutes.
var (
	buildDurationBuckets = []float64{1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200, 1800}
	stageDurationBuckets = []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600}
)

func (m *Metrics) registerBuildSeries() {
	m.buildsTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: Namespace,
		Name:      "builds_total",
		Help:      "Finished builds by outcome (success, partial, failed).",
	}, []string{"outcome"})
	m.buildDuration = prometheus.NewHistogram(prometheus.HistogramOpts{
		Namespace: Namespace,
		Name:      "build_duration_seconds",
		Help:      "Wall-clock duration of finished builds, from request to report.",
		Buckets:   buildDurationBuckets,
	})
	m.stageDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: Namespace,
		Name:      "stage_duration_seconds",
		Help:      "Busy time of each pipeline stage on a finished build, summed over its messages (parallel clones add up), from the build report.",
		Buckets:   stageDurationBuckets,
	}, []string{"stage"})
	m.failedRepositories = prometheus.NewGauge(prometheus.GaugeOpts{
		Namespace: Namespace,
		Name:      "failed_repositories",
		Help:      "Repositories that failed in the most recent finished build.",
	})
	m.renderedPages = prometheus.NewGauge(prometheus.GaugeOpts{
		Namespace: Namespace,
		Name:      "rendered_pages",
		Help:      "Pages rendered by the most recent build that produced a site.",
	})
	m.lastSuccess = prometheus.NewGauge(prometheus.GaugeOpts{
		Namespace: Namespace,
		Name:      "last_success_timestamp_seconds",
		Help:      "Unix time at which the most recent build with outcome success finished; 0 before the first.",
	})
	m.buildsSkipped = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: Namespace,
		Name:      "builds_skipped_total",
		Help:      "Build requests skipped by skip evaluation, by reason.",
	}, []string{"reason"})
	m.Registry.MustRegister(m.buildsTotal, m.buildDuration, m.stageDuration,
		m.failedRepositories, m.renderedPages, m.lastSuccess, m.buildsSkipped)
}

// ObserveBuild records a finished build from its report: one count in
// builds_total for its outcome, its duration, each stage's duration, and
// the gauges describing the latest build. A report without an outcome gets
// the one its counters imply (report.Report.DecideOutcome).
func (m *Metrics) ObserveBuild(rep report.Report) {
	if m == nil {
		return
	}
	if rep.Outcome == "" {
		rep.DecideOutcome()
	}
	m.buildsTotal.WithLabelValues(m.outcomeLabels.value(rep.Outcome)).Inc()
	m.buildDuration.Observe(buildSeconds(rep))
	for stage, ms := range rep.StageDurationsMS {
		m.stageDuration.WithLabelValues(m.stageLabels.value(stage)).Observe(millisToSeconds(ms))
	}
	m.failedRepositories.Set(float64(rep.FailedRepositories))
	m.observeUnits(rep)
	if rep.StaticRendered {
		m.renderedPages.Set(float64(rep.RenderedPages))
	}
	if rep.Outcome == report.OutcomeSuccess {
		finished := rep.FinishedAt
		if finished.IsZero() {
			finished = time.Now()
		}
		m.lastSuccess.Set(float64(finished.UnixNano()) / 1e9)
	}
}

// ObserveSkip records a build request that skip evaluation skipped. Reason
// should come from a small fixed set (for example "unchanged"); values
// beyond the label limit are counted as "other".
func (m *Metrics) ObserveSkip(reason string) {
	if m == nil {
		return
	}
	m.buildsSkipped.WithLabelValues(m.skipReasonLabels.value(reason)).Inc()
}

// buildSeconds is the build's duration: DurationMS, or the span between
// its start and finish when DurationMS was not filled.
func buildSeconds(rep report.Report) float64 {
	if rep.DurationMS <= 0 && !rep.StartedAt.IsZero() && rep.FinishedAt.After(rep.StartedAt) {
		return rep.FinishedAt.Sub(rep.StartedAt).Seconds()
	}
	return millisToSeconds(rep.DurationMS)
}

// millisToSeconds converts, treating a negative duration (a clock step) as
// zero so it cannot land below every bucket.
func millisToSeconds(ms int64) float64 {
	if ms < 0 {
		return 0
	}
	return float64(ms) / 1000
}
