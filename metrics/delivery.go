package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// stageHandleBuckets, in seconds: one message takes from a millisecond
// (a join update) to minutes (a render of a large site).
var stageHandleBuckets = []float64{0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300}

func (m *Metrics) registerDeliverySeries() {
	m.stageMessages = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: Namespace,
		Name:      "stage_messages_total",
		Help:      "Messages handled by each stage, by how the delivery ended (for example ack, nak, term).",
	}, []string{"stage", "outcome"})
	m.stageHandle = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: Namespace,
		Name:      "stage_handle_seconds",
		Help:      "Time a stage's handler spent on one message.",
		Buckets:   stageHandleBuckets,
	}, []string{"stage"})
	m.Registry.MustRegister(m.stageMessages, m.stageHandle)
}

// ObserveDelivery records one message handled by a stage: how the delivery
// ended (the runner's ack, nak or term decision) and how long the handler
// took. Stage and outcome should come from small fixed sets.
func (m *Metrics) ObserveDelivery(stage, outcome string, d time.Duration) {
	if m == nil {
		return
	}
	stage = m.stageLabels.value(stage)
	m.stageMessages.WithLabelValues(stage, m.deliveryOutcomeLabs.value(outcome)).Inc()
	if d < 0 {
		d = 0
	}
	m.stageHandle.WithLabelValues(stage).Observe(d.Seconds())
}
