package join

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/pipeline/stagetest"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/spill"
)

// newFixture is a join stage on an embedded broker's fan-ins and a local
// store holding one documentation tree, whose reference it returns.
func newFixture(t *testing.T) (pipeline.Stage, *buildstate.FanIns, *artifact.Local, artifact.Ref) {
	t.Helper()
	ctx := context.Background()
	builds, _ := stagetest.Buckets(t)
	store, err := artifact.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "a.md")
	if err := os.WriteFile(src, []byte("# a"), 0o644); err != nil {
		t.Fatal(err)
	}
	tree, err := store.PutTree(ctx, []artifact.File{{Rel: "a.md", Source: src}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	st, err := New(pipeline.Deps{Config: &cfg, Store: store, FanIns: builds, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	return st, builds, store, tree
}

func TestJoinCompletesTheJoinOnTheLastRepository(t *testing.T) {
	ctx := context.Background()
	st, builds, store, tree := newFixture(t)
	if err := builds.Begin(ctx, buildstate.BuildState{BuildID: "b1"}, []string{"ok", "broken"}); err != nil {
		t.Fatal(err)
	}
	cloned := func(repo string, ev events.RepoCloned) *events.RepoCloned {
		ev.Header = events.Header{ID: "c:" + repo, BuildID: "b1"}
		ev.Repository, ev.ContentPath = repo, repo
		return &ev
	}
	out, err := st.Handle(ctx, cloned("ok", events.RepoCloned{Tree: string(tree), DocFiles: 1, Commit: "abc"}))
	if err != nil || len(out) != 1 {
		t.Fatalf("first arrival: %v %v", out, err)
	}
	out, err = st.Handle(ctx, cloned("broken", events.RepoCloned{Failure: &report.Issue{Code: report.CodeCloneAuth}}))
	if err != nil || len(out) != 2 {
		t.Fatalf("last arrival must also announce content ready: %v %v", out, err)
	}
	ready := out[1].(*events.ContentReady)
	outcomes, err := spill.LoadList[events.RepoOutcome](ctx, store, t.TempDir(), ready.OutcomesRef, ready.Units)
	if err != nil || len(outcomes) != 2 || !outcomes[0].Failed || outcomes[1].Tree != string(tree) {
		t.Fatalf("outcomes %+v (%v)", outcomes, err)
	}
	// A tree the store does not hold cannot be rendered by anyone: permanent.
	missing := cloned("ok", events.RepoCloned{Tree: "sha256:" + "2222222222222222222222222222222222222222222222222222222222222222"})
	missing.BuildID = "b2"
	if _, err := st.Handle(ctx, missing); !pipeline.IsPermanent(err) {
		t.Fatalf("missing tree: %v", err)
	}
}
