package pipeline

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/events"
)

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
		!strings.Contains(rec.Reason, "typed_test.go") {
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

// On hands a stage its own event type and refuses any other as permanent.
func TestOnRefusesOtherEventTypes(t *testing.T) {
	h := On("join", func(context.Context, *events.RepoCloned) ([]events.Event, error) { return nil, nil })
	_, err := h(context.Background(), request("x"))
	if !IsPermanent(err) || !strings.Contains(err.Error(), "*events.BuildRequested") || !strings.Contains(err.Error(), "*events.RepoCloned") {
		t.Fatalf("err = %v, want a permanent error naming both types", err)
	}
	if _, err := h(context.Background(), &events.RepoCloned{}); err != nil {
		t.Fatalf("its own type: %v", err)
	}
}

// A runner stopped while messages keep arriving hands back what reaches it
// after the stop instead of starting handlers (a delivery racing the stop
// used to panic: "WaitGroup is reused before previous Wait has returned").
func TestRunnerStopsCleanlyWhileMessagesArrive(t *testing.T) {
	b := openTestBroker(t)
	var handled atomic.Int32
	for round := 0; round < 10; round++ {
		r := NewRunner(b.JS, zerolog.Nop(), []Stage{{
			Name: "discover", Subjects: []string{events.SubjectBuildRequested}, Concurrency: 4,
			Handle: On("discover", func(context.Context, *events.BuildRequested) ([]events.Event, error) {
				handled.Add(1)
				return nil, nil
			}),
		}})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan error, 1)
		go func() { done <- r.Run(ctx) }()
		before := handled.Load()
		for i := 0; i < 30; i++ {
			if err := Publish(context.Background(), b.JS, request(fmt.Sprintf("r%d-%d", round, i))); err != nil {
				t.Fatal(err)
			}
			if i == 15 {
				// Running for sure, with deliveries under way: stop now.
				for deadline := time.Now().Add(10 * time.Second); handled.Load() == before; time.Sleep(time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatalf("round %d: nothing handled", round)
					}
				}
				cancel()
			}
		}
		if err := <-done; err != nil {
			t.Fatalf("round %d: Run: %v", round, err)
		}
	}
	if handled.Load() == 0 {
		t.Fatal("no message was handled at all")
	}
}
