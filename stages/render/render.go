// Package render is the stage that renders one unit of a site — a
// repository, or one version of a versioned repository — with the embedded
// Hugo and theme.
//
// Consumes docweave.unit.render; publishes docweave.unit.rendered.
//
// A unit's output is stored by its content address (site.UnitAddress: the
// unit's documentation tree, the theme, the renderer, the site settings and
// the site's repositories and versions). A unit whose address is already
// stored is not rendered again: its stored output is reused, across builds,
// processes and restarts. Otherwise the unit's tree is laid out in a work
// directory of this process and rendered by a Hugo build of its own; its
// published files and its facts (page list, search entries) are put into
// the artifact store and the record named by the address points at them.
//
// A unit that cannot render fails alone: the outcome says so and the
// assemble stage keeps the rest of the site (and, in the daemon, the
// unit's last good output). Any number of replicas share the units of a
// build; each process renders build.render_concurrency units at once.
package render

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/renders"
	"github.com/docweave/docweave/site"
)

// Name is the stage name.
const Name = "render"

func init() { pipeline.Register(Name, New) }

// New builds the stage.
func New(d pipeline.Deps) (pipeline.Stage, error) {
	s := newStage(d)
	return pipeline.Stage{
		Name: Name, Subjects: []string{events.SubjectUnitRender}, Handle: s.handle,
		Publishes: []string{events.SubjectUnitRendered},
		// Messages held at once: more than the renders running, so a free
		// render finds units to batch (batch.go).
		Concurrency: cap(s.slots) * inFlightPerSlot, MaxDeliver: 3,
	}, nil
}

func newStage(d pipeline.Deps) *stage {
	conc := d.Config.Build.RenderConcurrency
	if conc < 1 {
		conc = 1
	}
	work := d.Workspace
	if work == "" {
		work = d.Config.WorkspaceRoot()
	}
	s := &stage{cfg: d.Config, store: d.Store, log: d.Log, workRoot: filepath.Join(work, "render"), slots: make(chan int, conc)}
	for i := 0; i < conc; i++ {
		s.slots <- i
	}
	return s
}

type stage struct {
	cfg      *config.Config
	store    artifact.Store
	log      zerolog.Logger
	workRoot string
	// slots names the work directories of the renders running at once:
	// each keeps Hugo's caches between the renders that use it.
	slots chan int
	// queue holds the units waiting for a render (batch.go).
	queueMu sync.Mutex
	queue   []*job
	// builds counts the Hugo builds this stage ran, for tests.
	builds atomic.Int64

	specMu sync.Mutex
	specs  map[string]site.Spec // by artifact reference, this process's recent builds
}

func (s *stage) handle(ctx context.Context, ev events.Event) ([]events.Event, error) {
	start := time.Now()
	in, ok := ev.(*events.UnitRender)
	if !ok {
		return nil, pipeline.Permanentf("render: unexpected %T", ev)
	}
	unit := in.Unit
	spec, err := s.spec(ctx, in.Spec)
	if err != nil {
		return nil, err
	}
	address := spec.Address(unit.ContentPath, unit.Tree)
	if stored, ok, err := renders.Stored(ctx, s.store, address); err != nil {
		return nil, err
	} else if ok {
		stored.Key, stored.Outcome, stored.DurationMS = unit.Key(), events.UnitOutcomeReused, time.Since(start).Milliseconds()
		return s.answer(in, stored), nil
	}
	out, err := s.render(ctx, &job{in: in, spec: spec, address: address, start: start, done: make(chan jobResult, 1)})
	if err != nil {
		return nil, err
	}
	return s.answer(in, out), nil
}

// answer wraps an outcome in the unit.rendered message; its ID is the
// same for every delivery of the job, so a repeated answer is dropped by
// the broker's de-duplication.
func (s *stage) answer(in *events.UnitRender, o events.UnitOutcome) []events.Event {
	return []events.Event{&events.UnitRendered{
		Header:  events.Header{ID: "unit.rendered:" + in.BuildID + ":" + o.Key, BuildID: in.BuildID},
		Outcome: o,
	}}
}

// errTransient marks failures of this process's disk or of the artifact
// store, which another delivery may not meet; everything else a render
// meets is the unit's own doing.
var errTransient = errors.New("transient")

// keep puts the unit's published files and its facts into the artifact
// store and notes their references in o.
func (s *stage) keep(ctx context.Context, published string, res site.UnitResult, o *events.UnitOutcome) error {
	files, err := artifact.ListDir(published)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %v", errTransient, err)
	}
	for i := range files {
		files[i].Owned = true // the next render of this slot starts afresh
	}
	ref, err := s.store.PutTree(ctx, files)
	if err != nil {
		return fmt.Errorf("store unit %s: %w", o.Key, err)
	}
	o.Output = string(ref)
	if o.Facts, err = renders.PutFacts(ctx, s.store, res.Facts, res.Search, s.workRoot); err != nil {
		return fmt.Errorf("store facts of unit %s: %w", o.Key, err)
	}
	return nil
}

// spec reads a build's render spec, once per process.
func (s *stage) spec(ctx context.Context, ref string) (site.Spec, error) {
	s.specMu.Lock()
	if sp, ok := s.specs[ref]; ok {
		s.specMu.Unlock()
		return sp, nil
	}
	s.specMu.Unlock()
	sp, err := renders.LoadSpec(ctx, s.store, ref, s.workRoot)
	if err != nil {
		return site.Spec{}, err
	}
	s.specMu.Lock()
	defer s.specMu.Unlock()
	if len(s.specs) >= 8 {
		s.specs = nil // a handful of builds at a time: start over
	}
	if s.specs == nil {
		s.specs = map[string]site.Spec{}
	}
	s.specs[ref] = sp
	return sp, nil
}

// filesOf says where the unit's files sit, for naming the file behind each
// page issue.
func (s *stage) filesOf(unit events.RepoOutcome) repoFiles {
	f := repoFiles{name: unit.Repository, contentPath: unit.ContentPath}
	if unit.Version != nil {
		f.version = unit.Version.Name
	}
	if r, ok := s.cfg.Repository(unit.Repository); ok {
		f.roots = r.DocPaths()
	}
	return f
}
