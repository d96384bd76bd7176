// Package stagetest is the contract every stage keeps, as checks a stage's
// own tests run on its own realistic input (the way Watermill's pubsub
// test suite is run by every implementation): a message delivered again
// gives the same output, and a cancelled context is honoured. The first
// clause, refusing events a stage does not consume, needs no input and is
// checked for every stage at once in stages/all.
package stagetest

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
)

// cancelBound is how long a handler given a cancelled context may take to
// return. It catches a handler that ignores cancellation and runs its
// whole job (or hangs); it is not a performance figure.
const cancelBound = 20 * time.Second

// CheckRedelivery handles ev twice, as the broker does when a process dies
// after its handler ran but before the acknowledgement, and fails the test
// unless both deliveries succeed and return events of the same subjects
// and IDs in the same order: the broker then drops the second publish as a
// duplicate, so a redelivery never forks a build. It returns the first
// delivery's events for further checks.
func CheckRedelivery(t testing.TB, st pipeline.Stage, ev events.Event) []events.Event {
	t.Helper()
	first, err := st.Handle(context.Background(), ev)
	if err != nil {
		t.Fatalf("stage %s, first delivery of %s: %v", st.Name, ev.Head().ID, err)
	}
	again, err := st.Handle(context.Background(), ev)
	if err != nil {
		t.Fatalf("stage %s, redelivery of %s: %v", st.Name, ev.Head().ID, err)
	}
	if a, b := identities(first), identities(again); !slices.Equal(a, b) {
		t.Fatalf("stage %s: a redelivery of %s returned %v, the first delivery %v", st.Name, ev.Head().ID, b, a)
	}
	return first
}

// CheckCancellation handles ev with a context that is already cancelled,
// as during a graceful shutdown, and fails the test unless the handler
// returns promptly and does not call the cancellation a permanent error
// (that would drop the message for good instead of handing it back). A
// handler whose job is done before it looks at the context may succeed;
// its events must then be the ones a normal delivery returns, apart from
// times and timings: a cancellation recorded as the job's own failure
// (a repository reported as failed because the process was stopping)
// breaks the contract.
func CheckCancellation(t testing.TB, st pipeline.Stage, ev events.Event) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	type result struct {
		out []events.Event
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := st.Handle(ctx, ev)
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		if pipeline.IsPermanent(r.err) {
			t.Fatalf("stage %s, cancelled while handling %s: a permanent error drops the message: %v", st.Name, ev.Head().ID, r.err)
		}
		if r.err == nil {
			normal, err := st.Handle(context.Background(), ev)
			if err != nil {
				t.Fatalf("stage %s, delivery of %s after a cancelled one: %v", st.Name, ev.Head().ID, err)
			}
			if a, b := contents(t, normal), contents(t, r.out); !slices.Equal(a, b) {
				t.Fatalf("stage %s: cancelled, it returned for %s\n%s\na normal delivery returns\n%s", st.Name, ev.Head().ID, strings.Join(b, "\n"), strings.Join(a, "\n"))
			}
		}
	case <-time.After(cancelBound):
		t.Fatalf("stage %s: still handling %s %v after its context was cancelled", st.Name, ev.Head().ID, cancelBound)
	}
}

// contents are the subjects and JSON encodings of events, in order,
// without what differs between two runs of the same job: times and
// timings.
func contents(t testing.TB, evs []events.Event) []string {
	t.Helper()
	out := make([]string, 0, len(evs))
	for _, ev := range evs {
		raw, err := json.Marshal(ev)
		if err != nil {
			t.Fatalf("encode %T: %v", ev, err)
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("decode %T: %v", ev, err)
		}
		stable, _ := json.Marshal(withoutTimes(v))
		out = append(out, ev.Subject()+" "+string(stable))
	}
	return out
}

// withoutTimes drops the keys "time" and "timings" at any depth.
func withoutTimes(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			if k == "time" || k == "timings" {
				delete(x, k)
				continue
			}
			x[k] = withoutTimes(child)
		}
	case []any:
		for i, child := range x {
			x[i] = withoutTimes(child)
		}
	}
	return v
}

// identities are the subjects and IDs of events, in order.
func identities(evs []events.Event) []string {
	out := make([]string, 0, len(evs))
	for _, ev := range evs {
		out = append(out, ev.Subject()+" "+ev.Head().ID)
	}
	return out
}
