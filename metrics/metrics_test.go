package metrics

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/docweave/docweave/report"
)

func TestNewRegistersGoAndProcessCollectors(t *testing.T) {
	m := New()
	families, err := m.Registry.Gather()
	if err != nil {
		t.Fatalf("gather: %v", err)
	}
	names := map[string]bool{}
	for _, f := range families {
		names[f.GetName()] = true
	}
	for _, want := range []string{"go_goroutines", "process_start_time_seconds", "docweave_builds_total",
		"docweave_failed_repositories", "docweave_links_broken"} {
		if !names[want] {
			t.Errorf("series %s not exported; have %v", want, keys(names))
		}
	}
}

func TestNewStartsKnownOutcomesAtZero(t *testing.T) {
	m := New()
	want := `
# HELP docweave_builds_total Finished builds by outcome (success, partial, failed).
# TYPE docweave_builds_total counter
docweave_builds_total{outcome="failed"} 0
docweave_builds_total{outcome="partial"} 0
docweave_builds_total{outcome="success"} 0
`
	if err := testutil.GatherAndCompare(m.Registry, strings.NewReader(want), "docweave_builds_total"); err != nil {
		t.Fatal(err)
	}
}

func TestInstancesDoNotShareSeries(t *testing.T) {
	a, b := New(), New()
	a.ObserveSkip("unchanged")
	if got := testutil.ToFloat64(b.buildsSkipped.WithLabelValues("unchanged")); got != 0 {
		t.Fatalf("second instance saw %v skips, want 0", got)
	}
}

func TestNilMetricsRecordsNothing(t *testing.T) {
	var m *Metrics
	// Each call must return without panicking.
	m.ObserveBuild(report.Report{Outcome: report.OutcomeSuccess})
	m.ObserveSkip("unchanged")
	m.ObserveDelivery("clone", "ack", time.Second)
	m.ObserveLinks(1, 1, 1)
	m.SetConsumerLagSource(func() map[string]ConsumerLag { return nil })
}

func TestSeriesPassPromlint(t *testing.T) {
	m := New()
	m.ObserveBuild(report.Report{Outcome: report.OutcomeSuccess, DurationMS: 1500,
		StageDurationsMS: map[string]int64{"clone": 300}, StaticRendered: true, RenderedPages: 4})
	m.ObserveSkip("unchanged")
	m.ObserveDelivery("clone", "ack", 20*time.Millisecond)
	m.ObserveLinks(10, 1, 5)
	m.SetConsumerLagSource(func() map[string]ConsumerLag { return map[string]ConsumerLag{"clone": {Pending: 1}} })
	problems, err := testutil.GatherAndLint(m.Registry)
	if err != nil {
		t.Fatalf("lint: %v", err)
	}
	for _, p := range problems {
		if strings.HasPrefix(p.Metric, Namespace+"_") {
			t.Errorf("%s: %s", p.Metric, p.Text)
		}
	}
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
