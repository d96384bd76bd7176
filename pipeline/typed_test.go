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
