package metrics

import (
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
)

func TestObserveDelivery(t *testing.T) {
	m := New()
	m.ObserveDelivery("clone", "ack", 250*time.Millisecond)
	m.ObserveDelivery("clone", "nak", 750*time.Millisecond)
	m.ObserveDelivery("render", "ack", -time.Second)

	if got := testutil.ToFloat64(m.stageMessages.WithLabelValues("clone", "ack")); got != 1 {
		t.Errorf("stage_messages_total{clone,ack} = %v, want 1", got)
	}
	if got := testutil.ToFloat64(m.stageMessages.WithLabelValues("clone", "nak")); got != 1 {
		t.Errorf("stage_messages_total{clone,nak} = %v, want 1", got)
	}
	clone, err := m.stageHandle.GetMetricWithLabelValues("clone")
	if err != nil {
		t.Fatal(err)
	}
	if got := histogramSum(t, clone); got != 1 {
		t.Errorf("clone handle seconds sum = %v, want 1", got)
	}
	render, err := m.stageHandle.GetMetricWithLabelValues("render")
	if err != nil {
		t.Fatal(err)
	}
	if got := histogramSum(t, render); got != 0 {
		t.Errorf("negative duration recorded as %v, want 0", got)
	}
}

// histogramSum reads the sample sum of one histogram series.
func histogramSum(t *testing.T, o prometheus.Observer) float64 {
	t.Helper()
	metric, ok := o.(prometheus.Metric)
	if !ok {
		t.Fatalf("%T is not a prometheus.Metric", o)
	}
	var pb dto.Metric
	if err := metric.Write(&pb); err != nil {
		t.Fatal(err)
	}
	return pb.GetHistogram().GetSampleSum()
}
