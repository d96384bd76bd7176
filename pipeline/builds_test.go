package pipeline

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/docweave/docweave/events"
)

func openTestBroker(t *testing.T) *Broker {
	t.Helper()
	b, err := OpenBroker(context.Background(), BrokerOptions{StoreDir: t.TempDir(), Name: t.Name()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	if err := Provision(context.Background(), b.JS, 1); err != nil {
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
	builds, err := OpenBuilds(ctx, b.JS)
	if err != nil {
		t.Fatal(err)
	}
	var expected []string
	for i := 0; i < 20; i++ {
		expected = append(expected, fmt.Sprintf("repo%02d", i))
	}
	if err := builds.Begin(ctx, BuildState{BuildID: "b1", Expected: expected}); err != nil {
		t.Fatal(err)
	}
	// Beginning again keeps the record (redelivered build.requested).
	if err := builds.Begin(ctx, BuildState{BuildID: "b1", Expected: []string{"other"}}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	completions := 0
	for _, name := range expected {
		wg.Add(1)
		go func(name string) {
			defer wg.Done()
			st, done, err := builds.Arrive(ctx, "b1", events.RepoOutcome{Repository: name, DocFiles: 1})
			if err != nil {
				t.Error(err)
				return
			}
			if done {
				mu.Lock()
				completions++
				mu.Unlock()
				if len(st.Arrived) != len(expected) {
					t.Errorf("complete with %d of %d arrivals", len(st.Arrived), len(expected))
				}
			}
		}(name)
	}
	wg.Wait()
	if completions != 1 {
		t.Fatalf("join completed %d times, want exactly once", completions)
	}
	// A redelivered arrival sees the build complete and keeps the first outcome.
	st, done, err := builds.Arrive(ctx, "b1", events.RepoOutcome{Repository: "repo03", DocFiles: 99})
	if err != nil || !done {
		t.Fatalf("redelivered arrival: done=%v err=%v", done, err)
	}
	if st.Arrived["repo03"].DocFiles != 1 {
		t.Fatalf("redelivery replaced the first outcome: %+v", st.Arrived["repo03"])
	}
	if got := st.Outcomes(); len(got) != 20 || got[0].Repository != "repo00" || got[19].Repository != "repo19" {
		t.Fatalf("outcomes not sorted: %v", got)
	}
}
