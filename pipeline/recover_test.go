package pipeline

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/docweave/docweave/events"
)

// recoverPanics turns a handler's panic into a permanent error naming the
// stage, the panic's value and where it happened.
func TestRecoverPanicsTurnsAPanicIntoAPermanentError(t *testing.T) {
	h := recoverPanics("render")(func(context.Context, events.Event) ([]events.Event, error) {
		panic("half a page")
	})
	out, err := h(context.Background(), request("x"))
	if out != nil || !IsPermanent(err) || !strings.Contains(err.Error(), "stage render panicked: half a page") ||
		!strings.Contains(err.Error(), "recover_test.go") {
		t.Fatalf("out %v, err %v; want a permanent error with the panic and its stack", out, err)
	}
}

// A panic in a handler terminates that message with its value and stack
// in the stage.failed record, once (no redelivery), and the runner goes
// on handling the next message.
func TestRunnerRecoversFromAPanickingHandler(t *testing.T) {
	b := openTestBroker(t)
	failed := collect(t, b, events.SubjectStageFailed)
	finished := collect(t, b, events.SubjectBuildFinished)
	var calls atomic.Int32
	runStages(t, b, Stage{
		Name: "discover", Subjects: []string{events.SubjectBuildRequested}, Publishes: []string{events.SubjectBuildFinished},
		Handle: On("discover", func(_ context.Context, req *events.BuildRequested) ([]events.Event, error) {
			calls.Add(1)
			if req.BuildID == "b-boom" {
				var m map[string]int
				m["x"]++ // a nil map write: a real runtime panic
			}
			return []events.Event{&events.BuildFinished{Header: events.Header{ID: "finished:" + req.BuildID, BuildID: req.BuildID}}}, nil
		}),
	})
	for _, id := range []string{"boom", "fine"} {
		if err := Publish(context.Background(), b.JS, request(id)); err != nil {
			t.Fatal(err)
		}
	}
	rec := waitEvent(t, failed).(*events.StageFailed)
	if rec.Stage != "discover" || rec.BuildID != "b-boom" || !strings.Contains(rec.Reason, "panicked: assignment to entry in nil map") ||
		!strings.Contains(rec.Reason, "recover_test.go") {
		t.Fatalf("stage.failed record does not carry the panic and its stack: %+v", rec)
	}
	if ev := waitEvent(t, finished); ev.Head().BuildID != "b-fine" {
		t.Fatalf("after the panic the runner published %+v, want the next build's result", ev)
	}
	waitConsumerIdle(t, b, "discover")
	if calls.Load() != 2 {
		t.Errorf("handled %d times, want 2 (the panicking message is not redelivered)", calls.Load())
	}
}
