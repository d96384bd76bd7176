package join

import (
	"context"
	"testing"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline/stagetest"
)

// TestJoinKeepsTheStageContract: the arrival that completes a build's join
// announces content_ready again when it is delivered again (a process that
// died before publishing must not leave the build waiting), and a
// cancelled arrival is handed back.
func TestJoinKeepsTheStageContract(t *testing.T) {
	ctx := context.Background()
	st, builds, _, tree := newFixture(t)
	for _, id := range []string{"b1", "b2"} {
		if err := builds.Begin(ctx, buildstate.BuildState{BuildID: id}, []string{"docs"}); err != nil {
			t.Fatal(err)
		}
	}
	arrival := func(build string) *events.RepoCloned {
		return &events.RepoCloned{Header: events.Header{ID: "repo.cloned:" + build + ":docs", BuildID: build},
			Repository: "docs", ContentPath: "docs", Tree: string(tree), DocFiles: 1, Commit: "abc"}
	}
	if out := stagetest.CheckRedelivery(t, st, arrival("b1")); len(out) != 2 {
		t.Fatalf("%d events, want repo.pruned and content_ready", len(out))
	}
	stagetest.CheckCancellation(t, st, arrival("b2"))
}
