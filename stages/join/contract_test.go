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
)

// TestJoinKeepsTheStageContract: the arrival that completes a build's join
// announces content_ready again when it is delivered again (a process that
// died before publishing must not leave the build waiting), and a
// cancelled arrival is handed back.
func TestJoinKeepsTheStageContract(t *testing.T) {
	ctx := context.Background()
	b, err := pipeline.OpenBroker(ctx, pipeline.BrokerOptions{StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := pipeline.Provision(ctx, b.JS, 1); err != nil {
		t.Fatal(err)
	}
	builds, err := buildstate.OpenFanIns(ctx, b.JS)
	if err != nil {
		t.Fatal(err)
	}
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
	for _, id := range []string{"b1", "b2"} {
		if err := builds.Begin(ctx, buildstate.BuildState{BuildID: id, Expected: []string{"docs"}}); err != nil {
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
