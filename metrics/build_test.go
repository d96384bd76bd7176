package metrics

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/docweave/docweave/report"
)

func TestObserveBuildSuccess(t *testing.T) {
	m := New()
	finished := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	m.ObserveBuild(report.Report{
		Outcome:            report.OutcomeSuccess,
		DurationMS:         7500,
		FinishedAt:         finished,
		StageDurationsMS:   map[string]int64{"clone": 4000, "render": 200},
		FailedRepositories: 0,
		StaticRendered:     true,
		RenderedPages:      42,
	})
	want := `
# HELP docweave_builds_total Finished builds by outcome (success, partial, failed).
# TYPE docweave_builds_total counter
docweave_builds_total{outcome="failed"} 0
docweave_builds_total{outcome="partial"} 0
docweave_builds_total{outcome="success"} 1
# HELP docweave_build_duration_seconds Wall-clock duration of finished builds, from request to report.
# TYPE docweave_build_duration_seconds histogram
docweave_build_duration_seconds_bucket{le="1"} 0
docweave_build_duration_seconds_bucket{le="2"} 0
docweave_build_duration_seconds_bucket{le="5"} 0
docweave_build_duration_seconds_bucket{le="10"} 1
docweave_build_duration_seconds_bucket{le="20"} 1
docweave_build_duration_seconds_bucket{le="30"} 1
docweave_build_duration_seconds_bucket{le="60"} 1
docweave_build_duration_seconds_bucket{le="120"} 1
docweave_build_duration_seconds_bucket{le="300"} 1
docweave_build_duration_seconds_bucket{le="600"} 1
docweave_build_duration_seconds_bucket{le="1200"} 1
docweave_build_duration_seconds_bucket{le="1800"} 1
docweave_build_duration_seconds_bucket{le="+Inf"} 1
docweave_build_duration_seconds_sum 7.5
docweave_build_duration_seconds_count 1
# HELP docweave_rendered_pages Pages rendered by the most recent build that produced a site.
# TYPE docweave_rendered_pages gauge
docweave_rendered_pages 42
# HELP docweave_failed_repositories Repositories that failed in the most recent finished build.
# TYPE docweave_failed_repositories gauge
docweave_failed_repositories 0
# HELP docweave_last_success_timestamp_seconds Unix time at which the most recent build with outcome success finished; 0 before the first.
# TYPE docweave_last_success_timestamp_seconds gauge
docweave_last_success_timestamp_seconds 1.7723664e+09
`
	err := testutil.GatherAndCompare(m.Registry, strings.NewReader(want),
		"docweave_builds_total", "docweave_build_duration_seconds", "docweave_rendered_pages",
		"docweave_failed_repositories", "docweave_last_success_timestamp_seconds")
	if err != nil {
		t.Fatal(err)
	}
	if n := testutil.CollectAndCount(m.stageDuration); n != 2 {
		t.Fatalf("stage_duration_seconds has %d series, want 2 (clone, render)", n)
	}
	clone, err := m.stageDuration.GetMetricWithLabelValues("clone")
	if err != nil {
		t.Fatal(err)
	}
	if got := histogramSum(t, clone); got != 4 {
		t.Fatalf("clone stage duration sum = %v s, want 4", got)
	}
}

func TestObserveBuildFailedKeepsLastSiteGauges(t *testing.T) {
	m := New()
	m.ObserveBuild(report.Report{Outcome: report.OutcomeSuccess, StaticRendered: true, RenderedPages: 10,
		FinishedAt: time.Unix(1000, 0)})
	m.ObserveBuild(report.Report{Outcome: report.OutcomeFailed, StaticRendered: false, FailedRepositories: 3,
		FinishedAt: time.Unix(2000, 0)})

	if got := testutil.ToFloat64(m.renderedPages); got != 10 {
		t.Errorf("rendered_pages = %v after a failed build, want the last site's 10", got)
	}
	if got := testutil.ToFloat64(m.failedRepositories); got != 3 {
		t.Errorf("failed_repositories = %v, want 3 from the latest build", got)
	}
	if got := testutil.ToFloat64(m.lastSuccess); got != 1000 {
		t.Errorf("last_success_timestamp_seconds = %v, want 1000 (a failed build is not a success)", got)
	}
	if got := testutil.ToFloat64(m.buildsTotal.WithLabelValues(report.OutcomeFailed)); got != 1 {
		t.Errorf("builds_total{outcome=failed} = %v, want 1", got)
	}
}

func TestObserveBuildPartialIsNotSuccess(t *testing.T) {
	m := New()
	m.ObserveBuild(report.Report{Outcome: report.OutcomePartial, StaticRendered: true, RenderedPages: 5,
		FailedRepositories: 1, FinishedAt: time.Unix(3000, 0)})
	if got := testutil.ToFloat64(m.lastSuccess); got != 0 {
		t.Errorf("last_success_timestamp_seconds = %v after a partial build, want 0", got)
	}
	if got := testutil.ToFloat64(m.renderedPages); got != 5 {
		t.Errorf("rendered_pages = %v, want 5 (a partial build publishes a site)", got)
	}
}

func TestObserveBuildDecidesMissingOutcome(t *testing.T) {
	m := New()
	m.ObserveBuild(report.Report{StaticRendered: true, FailedRepositories: 2})
	if got := testutil.ToFloat64(m.buildsTotal.WithLabelValues(report.OutcomePartial)); got != 1 {
		t.Fatalf("builds_total{outcome=partial} = %v, want 1 for a report without outcome", got)
	}
}

func TestObserveBuildDurationFromTimesAndClockSteps(t *testing.T) {
	start := time.Unix(100, 0)
	if got := buildSeconds(report.Report{StartedAt: start, FinishedAt: start.Add(3 * time.Second)}); got != 3 {
		t.Errorf("duration from times = %v, want 3", got)
	}
	if got := buildSeconds(report.Report{DurationMS: 2500, StartedAt: start, FinishedAt: start.Add(time.Hour)}); got != 2.5 {
		t.Errorf("DurationMS must win when set: got %v, want 2.5", got)
	}
	if got := millisToSeconds(-5); got != 0 {
		t.Errorf("negative duration = %v, want 0", got)
	}
}

func TestObserveSkip(t *testing.T) {
	m := New()
	m.ObserveSkip("unchanged")
	m.ObserveSkip("unchanged")
	m.ObserveSkip("")
	want := `
# HELP docweave_builds_skipped_total Build requests skipped by skip evaluation, by reason.
# TYPE docweave_builds_skipped_total counter
docweave_builds_skipped_total{reason="unchanged"} 2
docweave_builds_skipped_total{reason="unknown"} 1
`
	if err := testutil.GatherAndCompare(m.Registry, strings.NewReader(want), "docweave_builds_skipped_total"); err != nil {
		t.Fatal(err)
	}
}
