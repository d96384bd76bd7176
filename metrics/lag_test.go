package metrics

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestConsumerLagReadAtScrapeTime(t *testing.T) {
	m := New()
	var pending atomic.Uint64
	pending.Store(7)
	m.SetConsumerLagSource(func() map[string]ConsumerLag {
		return map[string]ConsumerLag{
			"clone":  {Pending: pending.Load(), AckPending: 2, Redelivered: 1},
			"render": {},
		}
	})
	want := func(clonePending string) string {
		return `
# HELP docweave_stage_consumer_pending Messages waiting for a stage's consumer that were not delivered yet.
# TYPE docweave_stage_consumer_pending gauge
docweave_stage_consumer_pending{stage="clone"} ` + clonePending + `
docweave_stage_consumer_pending{stage="render"} 0
# HELP docweave_stage_consumer_ack_pending Messages delivered to a stage's consumer and not acknowledged yet.
# TYPE docweave_stage_consumer_ack_pending gauge
docweave_stage_consumer_ack_pending{stage="clone"} 2
docweave_stage_consumer_ack_pending{stage="render"} 0
# HELP docweave_stage_consumer_redelivered Unacknowledged messages of a stage's consumer that were delivered more than once.
# TYPE docweave_stage_consumer_redelivered gauge
docweave_stage_consumer_redelivered{stage="clone"} 1
docweave_stage_consumer_redelivered{stage="render"} 0
`
	}
	names := []string{"docweave_stage_consumer_pending", "docweave_stage_consumer_ack_pending", "docweave_stage_consumer_redelivered"}
	if err := testutil.GatherAndCompare(m.Registry, strings.NewReader(want("7")), names...); err != nil {
		t.Fatal(err)
	}
	pending.Store(3)
	if err := testutil.GatherAndCompare(m.Registry, strings.NewReader(want("3")), names...); err != nil {
		t.Fatalf("second scrape did not read the source again: %v", err)
	}
}

func TestConsumerLagWithoutSourceExportsNothing(t *testing.T) {
	m := New()
	if n, err := testutil.GatherAndCount(m.Registry, "docweave_stage_consumer_pending"); err != nil || n != 0 {
		t.Fatalf("without a source: %d series, err %v; want 0, nil", n, err)
	}
	m.SetConsumerLagSource(func() map[string]ConsumerLag { return map[string]ConsumerLag{"clone": {}} })
	m.SetConsumerLagSource(nil)
	if n, err := testutil.GatherAndCount(m.Registry, "docweave_stage_consumer_pending"); err != nil || n != 0 {
		t.Fatalf("after clearing the source: %d series, err %v; want 0, nil", n, err)
	}
}

func TestConsumerLagPanickingSourceIsAScrapeError(t *testing.T) {
	m := New()
	m.SetConsumerLagSource(func() map[string]ConsumerLag { panic("broker gone") })
	_, err := m.Registry.Gather()
	if err == nil || !strings.Contains(err.Error(), "consumer lag source panicked: broker gone") {
		t.Fatalf("Gather error = %v, want the source's panic reported", err)
	}
}

func TestConsumerLagInvalidStageNameIsAScrapeError(t *testing.T) {
	m := New()
	m.SetConsumerLagSource(func() map[string]ConsumerLag {
		return map[string]ConsumerLag{"bad\xff": {Pending: 1}, "clone": {Pending: 2}}
	})
	_, err := m.Registry.Gather()
	if err == nil || !strings.Contains(err.Error(), `consumer lag of stage "bad\xff"`) {
		t.Fatalf("Gather error = %v, want the invalid stage named", err)
	}
}

// Every stage the source names is exported, a stage at 0 included.
func TestStageProcessesAreExportedWithZeros(t *testing.T) {
	m := New()
	m.SetStageProcessesSource(func() (map[string]int, error) { return map[string]int{"render": 2, "assemble": 0}, nil })
	want := `
# HELP docweave_stage_processes Live processes that run a stage (announced on the broker); 0 for a stage nobody runs.
# TYPE docweave_stage_processes gauge
docweave_stage_processes{stage="assemble"} 0
docweave_stage_processes{stage="render"} 2
`
	if err := testutil.GatherAndCompare(m.Registry, strings.NewReader(want), "docweave_stage_processes"); err != nil {
		t.Fatal(err)
	}
}
