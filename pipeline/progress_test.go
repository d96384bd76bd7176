package pipeline

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docweave/docweave/events"
)

// A handler working for several ack waits keeps its message: the runner
// signals progress, so the broker does not deliver it again meanwhile.
func TestKeepAliveHoldsASlowMessage(t *testing.T) {
	b := openTestBroker(t)
	var calls atomic.Int32
	done := make(chan struct{}, 4)
	runStages(t, b, Stage{
		Name: "discover", Subjects: []string{events.SubjectBuildRequested}, AckWait: 300 * time.Millisecond, Concurrency: 2,
		Handle: func(context.Context, events.Event) ([]events.Event, error) {
			calls.Add(1)
			time.Sleep(1200 * time.Millisecond)
			done <- struct{}{}
			return nil, nil
		},
	})
	if err := Publish(context.Background(), b.JS, request("slow")); err != nil {
		t.Fatal(err)
	}
	<-done
	waitConsumerIdle(t, b, "discover")
	if n := calls.Load(); n != 1 {
		t.Fatalf("the slow message was handled %d times, want once", n)
	}
}
