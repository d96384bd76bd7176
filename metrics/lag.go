package metrics

import (
	"fmt"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// ConsumerLag is the backlog of one stage's durable consumer, as the broker
// reports it. It tells an operator whether a stage keeps up: a growing
// Pending means messages arrive faster than the stage handles them.
type ConsumerLag struct {
	// Pending is the number of messages not yet delivered to the stage.
	Pending uint64
	// AckPending is the number delivered but not yet acknowledged.
	AckPending uint64
	// Redelivered is the number of delivered, unacknowledged messages that
	// were delivered more than once.
	Redelivered uint64
}

// LagSource returns the current lag of each stage's consumer, keyed by
// stage name. It is called on every scrape, so it must be quick and safe
// for concurrent use.
type LagSource func() map[string]ConsumerLag

// SetConsumerLagSource installs the function read at scrape time to export
// docweave_stage_consumer_pending, _ack_pending and _redelivered per stage.
// Until it is called, or after it is called with nil, no lag series are
// exported. It may be called at any time.
func (m *Metrics) SetConsumerLagSource(f func() map[string]ConsumerLag) {
	if m == nil {
		return
	}
	if f == nil {
		m.consumerLag.source.Store(nil)
		return
	}
	src := LagSource(f)
	m.consumerLag.source.Store(&src)
}

// lagCollector reads the lag source at collection time. The values belong
// to the broker, not to this process, so they are not kept in gauges that
// could go stale between scrapes.
type lagCollector struct {
	source      atomic.Pointer[LagSource]
	pending     *prometheus.Desc
	ackPending  *prometheus.Desc
	redelivered *prometheus.Desc
}

func newLagCollector() *lagCollector {
	stage := []string{"stage"}
	return &lagCollector{
		pending: prometheus.NewDesc(Namespace+"_stage_consumer_pending",
			"Messages waiting for a stage's consumer that were not delivered yet.", stage, nil),
		ackPending: prometheus.NewDesc(Namespace+"_stage_consumer_ack_pending",
			"Messages delivered to a stage's consumer and not acknowledged yet.", stage, nil),
		redelivered: prometheus.NewDesc(Namespace+"_stage_consumer_redelivered",
			"Unacknowledged messages of a stage's consumer that were delivered more than once.", stage, nil),
	}
}

// Describe implements prometheus.Collector.
func (c *lagCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.pending
	ch <- c.ackPending
	ch <- c.redelivered
}

// Collect implements prometheus.Collector. The registry runs collectors in
// their own goroutines, where a panic would end the whole daemon, so a
// panicking source is turned into a scrape error instead.
func (c *lagCollector) Collect(ch chan<- prometheus.Metric) {
	src := c.source.Load()
	if src == nil {
		return
	}
	lags, err := readLagSource(*src)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.pending, err)
		return
	}
	for stage, lag := range lags {
		c.emit(ch, c.pending, lag.Pending, stage)
		c.emit(ch, c.ackPending, lag.AckPending, stage)
		c.emit(ch, c.redelivered, lag.Redelivered, stage)
	}
}

func (c *lagCollector) emit(ch chan<- prometheus.Metric, desc *prometheus.Desc, v uint64, stage string) {
	metric, err := prometheus.NewConstMetric(desc, prometheus.GaugeValue, float64(v), stage)
	if err != nil {
		metric = prometheus.NewInvalidMetric(desc, fmt.Errorf("consumer lag of stage %q: %w", stage, err))
	}
	ch <- metric
}

// readLagSource calls src, turning a panic into an error.
func readLagSource(src LagSource) (lags map[string]ConsumerLag, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("consumer lag source panicked: %v", p)
		}
	}()
	return src(), nil
}
