package assemble

import (
	"context"
	"testing"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline/stagetest"
)

// TestAssembleKeepsTheStageContract: content_ready delivered again plans
// the same unit.render jobs; the unit.rendered that completes the build,
// delivered again, announces the same site.rendered (a process that died
// before publishing must not leave the build waiting); a cancelled
// delivery is handed back.
func TestAssembleKeepsTheStageContract(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	outcome := events.RepoOutcome{Repository: "api", ContentPath: "api", Commit: "c1",
		Tree: f.tree(t, map[string]string{"index.md": "# API\n", "guide.md": "# Guide\n"}), DocFiles: 2}
	ev := f.ready(t, "20261126t200000.000001-a", outcome)
	if err := f.builds.Begin(ctx, buildstate.BuildState{BuildID: ev.BuildID}, []string{outcome.Key()}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.builds.Arrive(ctx, ev.BuildID, outcome); err != nil {
		t.Fatal(err)
	}
	jobs := stagetest.CheckRedelivery(t, f.stage, ev)
	var last events.Event
	for _, job := range jobs {
		unit, ok := job.(*events.UnitRender)
		if !ok {
			t.Fatalf("content_ready planned a %s", job.Subject())
		}
		out, err := f.renderer.Handle(ctx, unit)
		if err != nil || len(out) != 1 {
			t.Fatalf("render %s: %v %v", unit.ID, out, err)
		}
		last = out[0]
		if job != jobs[len(jobs)-1] {
			if _, err := f.stage.Handle(ctx, last); err != nil {
				t.Fatal(err)
			}
		}
	}
	if last == nil {
		t.Fatal("no unit planned")
	}
	out := stagetest.CheckRedelivery(t, f.stage, last)
	if len(out) != 1 || out[0].Subject() != events.SubjectSiteRendered {
		t.Fatalf("the last unit.rendered gave %v, want site.rendered", out)
	}
	stagetest.CheckCancellation(t, f.stage, f.ready(t, "20261126t200000.000002-b", outcome))
}
