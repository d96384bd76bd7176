package buildstate_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/natsbroker"
)

func openTestBroker(t *testing.T) *natsbroker.Broker {
	t.Helper()
	b, err := natsbroker.Open(context.Background(), natsbroker.Options{StoreDir: t.TempDir(), Name: t.Name()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	if err := natsbroker.Provision(context.Background(), b.JS, 1); err != nil {
		t.Fatal(err)
	}
	return b
}

// Twenty goroutines record their repositories at once: exactly one of them
// observes the build becoming complete, and a redelivered arrival afterwards
// sees it complete without changing the recorded outcome.
func TestJoinCompletesOnceUnderConcurrentArrivals(t *testing.T) {
	ctx := context.Background()
	b := openTestBroker(t)
	builds, err := buildstate.OpenFanIns(ctx, b.JS)
	if err != nil {
		t.Fatal(err)
	}
	var expected []string
	for i := 0; i < 20; i++ {
		expected = append(expected, fmt.Sprintf("repo%02d", i))
	}
	if err := builds.Begin(ctx, buildstate.BuildState{BuildID: "b1"}, expected); err != nil {
		t.Fatal(err)
	}
	// Beginning again keeps the record (redelivered build.requested).
	if err := builds.Begin(ctx, buildstate.BuildState{BuildID: "b1", Reason: "again"}, expected); err != nil {
		t.Fatal(err)
	}
	if st, _ := builds.Get(ctx, "b1"); st.Reason != "" {
		t.Fatalf("second begin replaced the record: %+v", st)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	completions := 0
	for _, name := range expected {
		wg.Add(1)
		go func(name string) {
			defer wg.Done()
			_, done, err := builds.Arrive(ctx, "b1", events.RepoOutcome{Repository: name, DocFiles: 1})
			if err != nil {
				t.Error(err)
				return
			}
			if done {
				mu.Lock()
				completions++
				mu.Unlock()
				if got, err := builds.Outcomes(ctx, "b1"); err != nil || len(got) != len(expected) {
					t.Errorf("complete with %d of %d arrivals (%v)", len(got), len(expected), err)
				}
			}
		}(name)
	}
	wg.Wait()
	if completions != 1 {
		t.Fatalf("join completed %d times, want exactly once", completions)
	}
	// A redelivered arrival sees the build complete and keeps the first outcome.
	kept, done, err := builds.Arrive(ctx, "b1", events.RepoOutcome{Repository: "repo03", DocFiles: 99})
	if err != nil || !done {
		t.Fatalf("redelivered arrival: done=%v err=%v", done, err)
	}
	if kept.DocFiles != 1 {
		t.Fatalf("redelivery replaced the first outcome: %+v", kept)
	}
	if got, _ := builds.Outcomes(ctx, "b1"); len(got) != 20 || got[0].Repository != "repo00" || got[19].Repository != "repo19" {
		t.Fatalf("outcomes not sorted: %v", got)
	}
}

// A redelivered build.requested whose discover found other units (a tag
// deleted in between): the join waits for the new set, keeps the arrivals
// it already has and leaves out the unit no longer expected.
func TestBeginAgainTakesTheNewExpectedUnits(t *testing.T) {
	ctx := context.Background()
	builds, err := buildstate.OpenFanIns(ctx, openTestBroker(t).JS)
	if err != nil {
		t.Fatal(err)
	}
	if err := builds.Begin(ctx, buildstate.BuildState{BuildID: "b1"}, []string{"r@main", "r@v1", "r@v2"}); err != nil {
		t.Fatal(err)
	}
	v := func(name string) *events.Version { return &events.Version{Name: name} }
	if _, done, err := builds.Arrive(ctx, "b1", events.RepoOutcome{Repository: "r", Version: v("v2")}); err != nil || done {
		t.Fatalf("first arrival: done=%v err=%v", done, err)
	}
	if err := builds.Begin(ctx, buildstate.BuildState{BuildID: "b1"}, []string{"r@main", "r@v1"}); err != nil {
		t.Fatal(err)
	}
	builds.Arrive(ctx, "b1", events.RepoOutcome{Repository: "r", Version: v("main")})
	_, done, err := builds.Arrive(ctx, "b1", events.RepoOutcome{Repository: "r", Version: v("v1")})
	if err != nil || !done {
		t.Fatalf("join not complete with the new set: done=%v err=%v", done, err)
	}
	if got, _ := builds.Outcomes(ctx, "b1"); len(got) != 2 || got[0].Key() != "r@main" || got[1].Key() != "r@v1" {
		t.Fatalf("outcomes %+v", got)
	}
}

// TestACorruptRecordIsPermanent: a record that cannot be decoded cannot be
// fixed by retrying, and the runner must see that.
func TestACorruptRecordIsPermanent(t *testing.T) {
	ctx := context.Background()
	b := openTestBroker(t)
	kv, err := b.JS.KeyValue(ctx, buildstate.BuildsBucket)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Put(ctx, "b-bad", []byte("{not json")); err != nil {
		t.Fatal(err)
	}
	builds, err := buildstate.OpenFanIns(ctx, b.JS)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = builds.Arrive(ctx, "b-bad", events.RepoOutcome{Repository: "r"})
	if err == nil || !pipeline.IsPermanent(err) {
		t.Fatalf("arrival on a corrupt record: %v; want a permanent error", err)
	}
}
