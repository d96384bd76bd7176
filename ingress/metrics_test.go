package ingress

import (
	"errors"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

func TestMetricsFollowTheStore(t *testing.T) {
	reg := prometheus.NewPedanticRegistry()
	m, err := NewMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	s := NewStore(m)
	s.Publish(Project(sampleObjects("1", "2", true)))
	s.Publish(Project(sampleObjects("1", "2", true)))
	s.ReportError(errors.New("bad file"))

	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"docweave_ingress_hosts", nil, 1},
		{"docweave_ingress_paths", map[string]string{"reachability": "reachable"}, 1},
		{"docweave_ingress_paths", map[string]string{"reachability": "unknown"}, 0},
		{"docweave_ingress_projection_builds_total", nil, 2},
		{"docweave_ingress_projection_changes_total", nil, 1},
		{"docweave_ingress_source_errors_total", nil, 1},
		{"docweave_ingress_source_healthy", nil, 0},
	} {
		if got := gatherValue(t, reg, c.name, c.labels); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	if got := gatherValue(t, reg, "docweave_ingress_last_change_timestamp_seconds", nil); got < 1e9 {
		t.Errorf("last change timestamp = %v, want a Unix time", got)
	}
}

// gatherValue returns the value of the one series of name whose labels
// include want, failing the test when there is none.
func gatherValue(t *testing.T, g prometheus.Gatherer, name string, want map[string]string) float64 {
	t.Helper()
	families, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	series:
		for _, m := range f.GetMetric() {
			have := map[string]string{}
			for _, l := range m.GetLabel() {
				have[l.GetName()] = l.GetValue()
			}
			for k, v := range want {
				if have[k] != v {
					continue series
				}
			}
			switch {
			case m.Gauge != nil:
				return m.GetGauge().GetValue()
			case m.Counter != nil:
				return m.GetCounter().GetValue()
			}
		}
	}
	t.Fatalf("no series %s%v", name, want)
	return 0
}

func TestMetricsRegisterOnce(t *testing.T) {
	reg := prometheus.NewRegistry()
	if _, err := NewMetrics(reg); err != nil {
		t.Fatal(err)
	}
	if _, err := NewMetrics(reg); err == nil {
		t.Fatal("registering the ingress metrics twice on one registry must fail")
	}
}

func TestNilMetricsRecordNothing(t *testing.T) {
	var m *Metrics
	m.built(&Snapshot{}, true)
	m.failed()
}
