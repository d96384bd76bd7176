package finish

import (
	"context"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/pipeline/stagetest"
	"github.com/docweave/docweave/spill"
)

// TestFinishKeepsTheStageContract: a site.rendered delivered again writes
// the report again and announces the same build.finished; a cancelled
// delivery is handed back.
func TestFinishKeepsTheStageContract(t *testing.T) {
	ctx := context.Background()
	builds, states := stagetest.Buckets(t)
	cfg := config.Default()
	cfg.Output.Directory = t.TempDir()
	store, err := artifact.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	st, err := New(pipeline.Deps{Config: &cfg, FanIns: builds, States: states, Store: store, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"b1", "b2"} {
		if err := builds.Begin(ctx, buildstate.BuildState{BuildID: id}, []string{"docs"}); err != nil {
			t.Fatal(err)
		}
	}
	outcomes, err := spill.PutList(ctx, store, t.TempDir(), []events.RepoOutcome{{Repository: "docs", ContentPath: "docs", Commit: "c1", DocFiles: 1}})
	if err != nil {
		t.Fatal(err)
	}
	rendered := func(build string) *events.SiteRendered {
		return &events.SiteRendered{Header: events.Header{ID: "site.rendered:" + build, BuildID: build}, OK: true, Site: "sha256:" + build, Pages: 1,
			OutcomesRef: outcomes, Outcomes: 1}
	}
	out := stagetest.CheckRedelivery(t, st, rendered("b1"))
	if len(out) != 1 || out[0].Subject() != events.SubjectBuildFinished {
		t.Fatalf("%v, want one build.finished", out)
	}
	stagetest.CheckCancellation(t, st, rendered("b2"))
}
