package pipeline

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/events"
)

// A message handled again after a transient failure is counted in its
// build's state under the stage, once per redelivery.
func TestRunnerRecordsRedeliveriesInTheBuildState(t *testing.T) {
	ctx := context.Background()
	b := openTestBroker(t)
	builds, err := buildstate.OpenFanIns(ctx, b.JS)
	if err != nil {
		t.Fatal(err)
	}
	if err := builds.Begin(ctx, buildstate.BuildState{BuildID: "b-r1"}, []string{"x"}); err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	done := make(chan struct{}, 1)
	runStagesWith(t, b, func(r *Runner) { r.FanIns = builds }, Stage{
		Name: "discover", Subjects: []string{events.SubjectBuildRequested},
		Handle: func(context.Context, events.Event) ([]events.Event, error) {
			if calls.Add(1) == 1 {
				return nil, Transient(errors.New("hiccup"), 20*time.Millisecond)
			}
			done <- struct{}{}
			return nil, nil
		},
	})
	if err := Publish(ctx, b.JS, request("r1")); err != nil {
		t.Fatal(err)
	}
	<-done
	deadline := time.Now().Add(5 * time.Second)
	for {
		st, err := builds.Get(ctx, "b-r1")
		if err == nil && st.Redeliveries["discover"] == 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("redeliveries %v (%v), want discover: 1", st.Redeliveries, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
