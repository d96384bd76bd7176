package pipeline

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/docweave/docweave/events"
)

// observe reports a delivery once what it wraps has settled it, with the
// outcome the settling gave and the time since receipt.
func TestObserveReportsTheSettledDelivery(t *testing.T) {
	var got []Delivery
	h := observe(func(d Delivery) { got = append(got, d) })(func(ctx context.Context, _ events.Event) ([]events.Event, error) {
		deliveryOf(ctx).Outcome = OutcomeNakked
		return nil, errors.New("later")
	})
	d := &delivery{Delivery: Delivery{Stage: "clone", BuildID: "b-1"}, start: time.Now().Add(-time.Second)}
	if _, err := h(withDelivery(context.Background(), d), request("1")); err == nil {
		t.Fatal("the handler's error was lost")
	}
	if len(got) != 1 || got[0].Stage != "clone" || got[0].Outcome != OutcomeNakked || got[0].Duration < time.Second {
		t.Fatalf("observed %+v; want one nakked clone delivery of at least 1s", got)
	}
}

// The runner's observer sees every delivery with its outcome: one that
// cannot be decoded is terminated, one that fails once is nakked and then
// acknowledged.
func TestRunnerObservesEveryOutcome(t *testing.T) {
	b := openTestBroker(t)
	var mu sync.Mutex
	var outcomes []string
	acked := make(chan struct{}, 1)
	failed := false
	runStagesWith(t, b, func(r *Runner) {
		r.Observe = func(d Delivery) {
			mu.Lock()
			defer mu.Unlock()
			outcomes = append(outcomes, d.Outcome)
			if d.Outcome == OutcomeAcked {
				acked <- struct{}{}
			}
		}
	}, Stage{
		Name: "discover", Subjects: []string{events.SubjectBuildRequested},
		Handle: func(context.Context, events.Event) ([]events.Event, error) {
			if !failed {
				failed = true
				return nil, Transient(errors.New("hiccup"), 10*time.Millisecond)
			}
			return nil, nil
		},
	})
	if _, err := b.JS.PublishMsg(context.Background(), &nats.Msg{Subject: events.SubjectBuildRequested, Data: []byte("{not json")}); err != nil {
		t.Fatal(err)
	}
	if err := Publish(context.Background(), b.JS, request("o1")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-acked:
	case <-time.After(15 * time.Second):
		t.Fatal("no acknowledged delivery observed")
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{OutcomeTerminated, OutcomeNakked, OutcomeAcked}
	if len(outcomes) != len(want) {
		t.Fatalf("observed %v, want %v", outcomes, want)
	}
	for i := range want {
		if outcomes[i] != want[i] {
			t.Fatalf("observed %v, want %v", outcomes, want)
		}
	}
}
