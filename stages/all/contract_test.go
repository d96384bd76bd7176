package all

import (
	"context"
	"slices"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
)

// TestEveryStageRefusesEventsItDoesNotConsume is the first clause of the
// contract every stage keeps: a message of a type it does not consume is a
// permanent error (terminated and recorded once, never retried), and the
// stage touches nothing for it.
func TestEveryStageRefusesEventsItDoesNotConsume(t *testing.T) {
	cfg := config.Default()
	stages, err := pipeline.NewStages(pipeline.Registered(), pipeline.Deps{Config: &cfg, Workspace: t.TempDir(), Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	samples := []events.Event{
		&events.BuildRequested{}, &events.RepoClone{}, &events.RepoCloned{}, &events.RepoPruned{},
		&events.ContentReady{}, &events.UnitRender{}, &events.UnitRendered{}, &events.SiteRendered{},
		&events.SitePublished{}, &events.LinksVerified{}, &events.BuildFinished{}, &events.StageFailed{},
	}
	for _, st := range stages {
		refused := 0
		for _, ev := range samples {
			if slices.Contains(st.Subjects, ev.Subject()) {
				continue
			}
			_, err := st.Handle(context.Background(), ev)
			if !pipeline.IsPermanent(err) {
				t.Errorf("stage %s given a %T: err = %v, want a permanent error", st.Name, ev, err)
			}
			refused++
		}
		if refused == 0 {
			t.Errorf("stage %s consumes every sample: the test checks nothing for it", st.Name)
		}
	}
}
