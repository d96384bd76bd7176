// Package assemble is the stage that turns a build's documentation into
// its published site, in parts: it plans the render of the build's units,
// collects their outcomes, renders what spans units and publishes.
//
// Consumes docweave.build.content_ready and docweave.unit.rendered;
// publishes docweave.unit.render (one per unit whose output is not stored
// yet) and docweave.site.rendered.
//
//   - On build.content_ready it works out the site's repositories and
//     versions, stores the build's render spec and computes each unit's
//     content address. A unit whose address is stored is reused at once;
//     every other unit becomes one unit.render job, which any render
//     replica may take. The plan and the outcomes known so far open the
//     build's render join (buildstate.RenderJoin).
//   - Each unit.rendered is recorded in the join. When every unit has an
//     outcome, the stage assembles the site (site.Assemble) from the
//     stored unit outputs — hard links where the store is on this disk —
//     in a staging directory, and swaps it in as <output.directory>/public
//     with one exchange rename, unless a newer build has published
//     already. A unit that failed keeps its last good output on the site
//     (marked stale) when the saved state has one.
//
// The stage writes the output directory, so it runs where the site is
// served from, beside publishreload; render replicas may run anywhere.
package assemble

import (
	"context"
	"sync"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/stages"
)

// Name is the stage name.
const Name = stages.Assemble

func init() { pipeline.Register(Name, New) }

// New builds the stage.
func New(d pipeline.Deps) (pipeline.Stage, error) {
	work := d.Workspace
	if work == "" {
		work = d.Config.WorkspaceRoot()
	}
	s := &stage{cfg: d.Config, store: d.Store, builds: d.FanIns, states: d.States, log: d.Log, scratch: work}
	return pipeline.Stage{
		Name: Name, Subjects: []string{events.SubjectContentReady, events.SubjectUnitRendered}, Handle: s.handle,
		Publishes:   []string{events.SubjectUnitRender, events.SubjectSiteRendered},
		Concurrency: 4, MaxDeliver: 3,
	}, nil
}

type stage struct {
	cfg     *config.Config
	store   artifact.Store
	builds  *buildstate.FanIns
	states  *buildstate.States
	log     zerolog.Logger
	scratch string // the workspace, for small temporary files
	// publishMu lets one assembly of this process run at a time (see
	// publish).
	publishMu sync.Mutex
}

func (s *stage) handle(ctx context.Context, ev events.Event) ([]events.Event, error) {
	switch in := ev.(type) {
	case *events.ContentReady:
		return s.plan(ctx, in)
	case *events.UnitRendered:
		j, err := s.builds.ArriveRender(ctx, in.BuildID, in.Outcome)
		if err != nil {
			return nil, err
		}
		if !j.Complete {
			return nil, nil
		}
		return s.publish(ctx, j)
	default:
		return nil, pipeline.Permanentf("assemble: unexpected %T", ev)
	}
}
