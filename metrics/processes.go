package metrics

import (
	"fmt"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// ProcessesSource returns, for every stage of the pipeline (0 included),
// how many live processes run it. It is called on every scrape.
type ProcessesSource func() (map[string]int, error)

// SetStageProcessesSource installs the function read at scrape time to
// export docweave_stage_processes per stage: a stage at 0 is one no
// process runs, and a build waiting on it fails with STAGE_UNAVAILABLE
// after build.stage_timeout. Until it is called, nothing is exported.
func (m *Metrics) SetStageProcessesSource(f ProcessesSource) {
	if m == nil {
		return
	}
	m.processes.source.Store(&f)
}

// processesCollector reads the source at collection time: the processes
// belong to the deployment, not to this process.
type processesCollector struct {
	source atomic.Pointer[ProcessesSource]
	desc   *prometheus.Desc
}

func newProcessesCollector() *processesCollector {
	return &processesCollector{desc: prometheus.NewDesc(Namespace+"_stage_processes",
		"Live processes that run a stage (announced on the broker); 0 for a stage nobody runs.", []string{"stage"}, nil)}
}

// Describe implements prometheus.Collector.
func (c *processesCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

// Collect implements prometheus.Collector.
func (c *processesCollector) Collect(ch chan<- prometheus.Metric) {
	src := c.source.Load()
	if src == nil || *src == nil {
		return
	}
	counts, err := (*src)()
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.desc, fmt.Errorf("stage processes: %w", err))
		return
	}
	for stage, n := range counts {
		metric, err := prometheus.NewConstMetric(c.desc, prometheus.GaugeValue, float64(n), stage)
		if err != nil {
			metric = prometheus.NewInvalidMetric(c.desc, err)
		}
		ch <- metric
	}
}
