package buildstate_test

import (
	"context"
	"testing"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/events"
)

func TestStatesSaveAndLoad(t *testing.T) {
	ctx := context.Background()
	b := openTestBroker(t)
	states, err := buildstate.OpenStates(ctx, b.JS)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := states.Load(ctx); err != nil || st != nil {
		t.Fatalf("fresh bucket: %+v %v", st, err)
	}
	want := buildstate.SiteState{BuildID: "b1", ConfigHash: "c", Repositories: map[string]events.RepoOutcome{"a": {Repository: "a", Commit: "abc"}}}
	if err := states.Save(ctx, want); err != nil {
		t.Fatal(err)
	}
	got, err := states.Load(ctx)
	if err != nil || got == nil || got.BuildID != "b1" || got.Repositories["a"].Commit != "abc" {
		t.Fatalf("loaded %+v %v", got, err)
	}
}
