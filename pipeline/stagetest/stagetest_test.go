package stagetest

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
)

// recorder is a testing.TB that records a failure instead of failing, so
// the checks themselves can be tested on stages that break the contract.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// run runs a check in a goroutine of its own (Fatalf ends it) and returns
// the failure it recorded, "" when it passed.
func run(t *testing.T, check func(testing.TB)) string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		check(r)
	}()
	<-done
	return r.failed
}

func stageOf(h pipeline.Handler) pipeline.Stage {
	return pipeline.Stage{Name: "sample", Subjects: []string{events.SubjectBuildRequested}, Handle: h}
}

var sample = &events.BuildRequested{Header: events.Header{ID: "build.requested:b1", BuildID: "b1"}}

func TestChecksPassAStageThatKeepsTheContract(t *testing.T) {
	st := stageOf(func(ctx context.Context, ev events.Event) ([]events.Event, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return []events.Event{&events.BuildFinished{Header: events.Header{ID: "build.finished:" + ev.Head().BuildID, BuildID: ev.Head().BuildID}}}, nil
	})
	if f := run(t, func(tb testing.TB) { CheckRedelivery(tb, st, sample) }); f != "" {
		t.Fatalf("redelivery: %s", f)
	}
	if f := run(t, func(tb testing.TB) { CheckCancellation(tb, st, sample) }); f != "" {
		t.Fatalf("cancellation: %s", f)
	}
}

func TestRedeliveryCheckFailsNewIDsOnEachDelivery(t *testing.T) {
	n := 0
	st := stageOf(func(context.Context, events.Event) ([]events.Event, error) {
		n++
		return []events.Event{&events.BuildFinished{Header: events.Header{ID: fmt.Sprintf("finished-%d", n), BuildID: "b1"}}}, nil
	})
	if f := run(t, func(tb testing.TB) { CheckRedelivery(tb, st, sample) }); f == "" {
		t.Fatal("a stage minting new IDs on redelivery passed")
	}
}

func TestCancellationCheckFailsAPermanentError(t *testing.T) {
	st := stageOf(func(ctx context.Context, _ events.Event) ([]events.Event, error) {
		if ctx.Err() != nil {
			return nil, pipeline.Permanentf("cancelled")
		}
		return nil, nil
	})
	if f := run(t, func(tb testing.TB) { CheckCancellation(tb, st, sample) }); f == "" {
		t.Fatal("a stage that drops a cancelled message for good passed")
	}
}

func TestCancellationCheckFailsACancellationRecordedAsTheJobsFailure(t *testing.T) {
	st := stageOf(func(ctx context.Context, ev events.Event) ([]events.Event, error) {
		out := &events.BuildFinished{Header: events.Header{ID: "build.finished:b1", BuildID: "b1"}}
		out.Report.Outcome = "success"
		if ctx.Err() != nil {
			out.Report.Outcome = "failed"
		}
		return []events.Event{out}, nil
	})
	if f := run(t, func(tb testing.TB) { CheckCancellation(tb, st, sample) }); f == "" {
		t.Fatal("a stage that reports a cancelled job as failed passed")
	}
}
