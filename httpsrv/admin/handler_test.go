package admin

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/docweave/docweave/metrics"
	"github.com/docweave/docweave/report"
)

func TestMetricsExposeBuildSeries(t *testing.T) {
	h := newHarness(t, "tok") // /metrics is open even with a token
	h.metrics.ObserveBuild(report.Report{Outcome: report.OutcomeSuccess, DurationMS: 3000,
		StageDurationsMS: map[string]int64{"render": 1200}, StaticRendered: true, RenderedPages: 9,
		FailedRepositories: 0, FinishedAt: time.Unix(1_800_000_000, 0)})
	h.metrics.ObserveSkip("unchanged")
	h.metrics.SetConsumerLagSource(func() map[string]metrics.ConsumerLag {
		return map[string]metrics.ConsumerLag{"clone": {Pending: 4}}
	})

	want := `
# HELP docweave_builds_total Finished builds by outcome (success, partial, failed).
# TYPE docweave_builds_total counter
docweave_builds_total{outcome="failed"} 0
docweave_builds_total{outcome="partial"} 0
docweave_builds_total{outcome="success"} 1
# HELP docweave_builds_skipped_total Build requests skipped by skip evaluation, by reason.
# TYPE docweave_builds_skipped_total counter
docweave_builds_skipped_total{reason="unchanged"} 1
# HELP docweave_rendered_pages Pages rendered by the most recent build that produced a site.
# TYPE docweave_rendered_pages gauge
docweave_rendered_pages 9
# HELP docweave_last_success_timestamp_seconds Unix time at which the most recent build with outcome success finished; 0 before the first.
# TYPE docweave_last_success_timestamp_seconds gauge
docweave_last_success_timestamp_seconds 1.8e+09
# HELP docweave_stage_consumer_pending Messages waiting for a stage's consumer that were not delivered yet.
# TYPE docweave_stage_consumer_pending gauge
docweave_stage_consumer_pending{stage="clone"} 4
`
	err := testutil.ScrapeAndCompare(h.srv.URL+"/metrics", strings.NewReader(want),
		"docweave_builds_total", "docweave_builds_skipped_total", "docweave_rendered_pages",
		"docweave_last_success_timestamp_seconds", "docweave_stage_consumer_pending")
	if err != nil {
		t.Fatal(err)
	}

	resp := h.doRaw(t, http.MethodGet, "/metrics", "")
	body := readBody(t, resp)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Fatalf("Content-Type = %q, want the Prometheus text format", ct)
	}
	for _, series := range []string{`docweave_stage_duration_seconds_count{stage="render"} 1`,
		"docweave_build_duration_seconds_sum 3", "go_goroutines", "process_start_time_seconds"} {
		if !strings.Contains(body, series) {
			t.Errorf("exposition lacks %q", series)
		}
	}
}

func TestMetricsSurviveAFailingCollector(t *testing.T) {
	h := newHarness(t, "")
	h.metrics.ObserveSkip("unchanged")
	h.metrics.SetConsumerLagSource(func() map[string]metrics.ConsumerLag { panic("broker gone") })
	resp := h.doRaw(t, http.MethodGet, "/metrics", "")
	body := readBody(t, resp)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `docweave_builds_skipped_total{reason="unchanged"} 1`) {
		t.Fatalf("status %d; a failing lag source hid the other series:\n%s", resp.StatusCode, body)
	}
	if logs := h.closeAndLogs(); !strings.Contains(logs, "broker gone") {
		t.Fatalf("scrape problem not logged:\n%s", logs)
	}
}

func TestUnknownPathIsJSON404(t *testing.T) {
	h := newHarness(t, "")
	for _, path := range []string{"/", "/nope", "/status/extra", "/api/builds"} {
		wantError(t, h.doRaw(t, http.MethodGet, path, ""), http.StatusNotFound, codeNotFound)
	}
}

func TestJSONResponsesAreNotCached(t *testing.T) {
	h := newHarness(t, "")
	resp := h.doRaw(t, http.MethodGet, "/health", "")
	if got := resp.Header.Get("Cache-Control"); got != "no-store" {
		t.Fatalf("Cache-Control = %q, want no-store", got)
	}
	if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Fatalf("X-Content-Type-Options = %q, want nosniff", got)
	}
}
