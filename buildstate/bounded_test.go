package buildstate_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/events"
)

// recordBound is what any record of a join or of the saved state must stay
// within, whatever the number of units.
const recordBound = 4 << 10

// largestRecord is the largest value in the bucket, and its key.
func largestRecord(t *testing.T, b bucketSizes) (string, int) {
	t.Helper()
	values, err := b.Values(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	key, n := "", 0
	for k, size := range values {
		if size > n {
			key, n = k, size
		}
	}
	return key, n
}

// A join of 3,000 units (with versioning, a few hundred repositories) keeps
// every record small: the head holds a bit per unit, each outcome its own
// record. It completes exactly once, and lists every outcome, in order.
func TestAJoinOfThousandsOfUnitsKeepsEveryRecordSmall(t *testing.T) {
	ctx := context.Background()
	b := openTestBroker(t)
	builds, err := buildstate.OpenFanIns(ctx, b.JS)
	if err != nil {
		t.Fatal(err)
	}
	const units = 3000
	var expected []string
	for i := range units {
		expected = append(expected, fmt.Sprintf("repository-%04d@release/v%d.%d", i/5, i%5, i))
	}
	if err := builds.Begin(ctx, buildstate.BuildState{BuildID: "b1"}, expected); err != nil {
		t.Fatal(err)
	}
	completions := 0
	for i := range units {
		o := events.RepoOutcome{Repository: fmt.Sprintf("repository-%04d", i/5), Version: &events.Version{Name: fmt.Sprintf("release/v%d.%d", i%5, i)},
			Tree: fmt.Sprintf("sha256:%064x", i), DocFiles: 40, Timings: events.Timings{"clone": 120}}
		_, done, err := builds.Arrive(ctx, "b1", o)
		if err != nil {
			t.Fatal(err)
		}
		if done {
			completions++
			if i != units-1 {
				t.Fatalf("complete after %d of %d arrivals", i+1, units)
			}
		}
	}
	if completions != 1 {
		t.Fatalf("completed %d times", completions)
	}
	got, err := builds.Outcomes(ctx, "b1")
	if err != nil || len(got) != units || got[0].Repository != "repository-0000" || got[units-1].Repository != "repository-0599" {
		t.Fatalf("%d outcomes (%v)", len(got), err)
	}
	key, n := largestRecord(t, bucketSizes{b, buildstate.BuildsBucket})
	t.Logf("largest record of a join of %d units: %s, %d bytes", units, key, n)
	if n > recordBound {
		t.Fatalf("record %s is %d bytes, over %d", key, n, recordBound)
	}
}

// The saved state of 3,000 units is a small record and one per unit; a
// state read while another build is saving its own (a unit's record
// changed after the state counted it) is taken for none, and a build that
// drops units drops their records.
func TestTheSavedStateOfThousandsOfUnitsKeepsEveryRecordSmall(t *testing.T) {
	ctx := context.Background()
	b := openTestBroker(t)
	states, err := buildstate.OpenStates(ctx, b.JS)
	if err != nil {
		t.Fatal(err)
	}
	st := buildstate.SiteState{BuildID: "b1", Repositories: map[string]events.RepoOutcome{}, Renders: map[string]events.UnitOutcome{}}
	for i := range 3000 {
		key := fmt.Sprintf("repository-%04d", i)
		st.Repositories[key] = events.RepoOutcome{Repository: key, Tree: fmt.Sprintf("sha256:%064x", i)}
		st.Renders[key] = events.UnitOutcome{Key: key, Output: fmt.Sprintf("sha256:%064x", i+1), Facts: fmt.Sprintf("sha256:%064x", i+2)}
	}
	if err := states.Save(ctx, st); err != nil {
		t.Fatal(err)
	}
	key, n := largestRecord(t, bucketSizes{b, buildstate.StateBucket})
	t.Logf("largest record of a saved state of 3,000 units: %s, %d bytes", key, n)
	if n > recordBound {
		t.Fatalf("record %s is %d bytes, over %d", key, n, recordBound)
	}
	got, err := states.Load(ctx)
	if err != nil || got == nil || len(got.Repositories) != 3000 || len(got.Renders) != 3000 || got.Renders["repository-2999"].Facts != st.Renders["repository-2999"].Facts {
		t.Fatalf("loaded %v (%v)", got != nil, err)
	}

	// Another build saves a state of 2 units: the others' records go.
	small := buildstate.SiteState{BuildID: "b2", Repositories: map[string]events.RepoOutcome{
		"repository-0000": st.Repositories["repository-0000"], "new": {Repository: "new", Tree: "sha256:1"}}}
	if err := states.Save(ctx, small); err != nil {
		t.Fatal(err)
	}
	got, err = states.Load(ctx)
	if err != nil || got == nil || got.BuildID != "b2" || len(got.Repositories) != 2 || len(got.Renders) != 0 {
		t.Fatalf("after the smaller state: %+v (%v)", got, err)
	}
	keys, err := bucketSizes{b, buildstate.StateBucket}.Values(ctx)
	if err != nil || len(keys) != 3 {
		t.Fatalf("the state bucket holds %d keys, want the state and 2 units (%v)", len(keys), err)
	}

	// A unit's record written by a build still saving: the state read in
	// between does not add up, and is taken for none.
	kv, err := b.JS.KeyValue(ctx, buildstate.StateBucket)
	if err != nil {
		t.Fatal(err)
	}
	for k := range keys {
		if k != "site" {
			if _, err := kv.Put(ctx, k, []byte(`{"repository":{"repository":"changed"}}`)); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	if got, err := states.Load(ctx); err != nil || got != nil {
		t.Fatalf("a mixed state was read as %+v (%v)", got, err)
	}
}
