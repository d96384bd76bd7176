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
//
// A process with this stage runs its garbage collector at GOGC=200 unless
// GOGC is set (gc.go): unit renders churn through short-lived heaps.
package render

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/renders"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/site"
	"github.com/docweave/docweave/spill"
	"github.com/docweave/docweave/stages"
)

// Name is the stage name.
const Name = stages.Render

func init() { pipeline.Register(Name, New) }

// New builds the stage.
func New(d pipeline.Deps) (pipeline.Stage, error) {
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
	return pipeline.Stage{
		Name: Name, Subjects: []string{events.SubjectUnitRender}, Handle: pipeline.On(Name, s.handle),
		Publishes:   []string{events.SubjectUnitRendered},
		Concurrency: conc, MaxDeliver: 3,
	}, nil
}

type stage struct {
	cfg      *config.Config
	store    artifact.Store
	log      zerolog.Logger
	workRoot string
	// slots names the work directories of the renders running at once:
	// each keeps Hugo's caches between the renders that use it.
	slots chan int

	specMu sync.Mutex
	specs  map[string]site.Spec // by artifact reference, this process's recent builds
}

func (s *stage) handle(ctx context.Context, in *events.UnitRender) ([]events.Event, error) {
	// The GC target is raised by the first unit a process renders, not
	// when the stage is built: a control plane builds every stage only to
	// read what each consumes (daemon.neededStages).
	raiseGC(os.Getenv("GOGC"))
	start := time.Now()
	unit := in.Unit
	spec, err := s.spec(ctx, in.Spec)
	if err != nil {
		return nil, err
	}
	address := spec.Address(unit.ContentPath, unit.Tree)
	out := events.UnitOutcome{
		Key: unit.Key(), Repository: unit.Repository, ContentPath: unit.ContentPath, Address: address,
	}
	if unit.Version != nil {
		out.Version = unit.Version.Name
	}
	if stored, ok, err := renders.Stored(ctx, s.store, address); err != nil {
		return nil, err
	} else if ok {
		stored.Key, stored.Outcome, stored.DurationMS = out.Key, events.UnitOutcomeReused, time.Since(start).Milliseconds()
		return s.answer(in, stored), nil
	}

	slot := <-s.slots
	defer func() { s.slots <- slot }()
	res, dir, err := s.renderUnit(ctx, slot, unit, spec)
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, errTransient) || pipeline.IsPermanent(err) {
			return nil, err
		}
		out.Outcome = events.UnitOutcomeFailed
		out.Error = err.Error()
		out.DurationMS = time.Since(start).Milliseconds()
		out.IssueList = events.Issued(report.Issue{
			Code: report.CodeRenderFailed, Severity: report.SeverityError, Stage: Name,
			Repository: out.Repository, Version: out.Version,
			Message: "the unit could not be rendered: " + err.Error(),
		})
		s.log.Error().Str("build_id", in.BuildID).Str("unit", out.Key).Err(err).Msg("unit not rendered")
		return s.answer(in, out), nil
	}
	out.Outcome = events.UnitOutcomeRendered
	out.Pages, out.Files = res.Pages, res.Files
	// The record and unit.rendered hold the issues bounded: a unit can
	// have thousands (a link to a missing page on every page).
	if out.IssueList, err = spill.Issues(ctx, s.store, s.workRoot, pageIssues(res.Issues, []repoFiles{s.filesOf(unit)})); err != nil {
		return nil, err
	}
	if err := s.keep(ctx, dir, res, &out); err != nil {
		return nil, err
	}
	out.DurationMS = time.Since(start).Milliseconds()
	if err := renders.PutRecord(ctx, s.store, out); err != nil {
		return nil, err
	}
	s.log.Info().Str("build_id", in.BuildID).Str("unit", out.Key).Int("pages", out.Pages).
		Int("page_issues", len(res.Issues)).Int64("duration_ms", out.DurationMS).Msg("unit rendered")
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

// renderUnit lays the unit's tree out in the slot's work directory and
// renders it; it returns the result and the directory holding the
// published files.
func (s *stage) renderUnit(ctx context.Context, slot int, unit events.RepoOutcome, spec site.Spec) (site.UnitResult, string, error) {
	work := filepath.Join(s.workRoot, fmt.Sprintf("slot-%d", slot))
	project := filepath.Join(work, "project")
	content := filepath.Join(project, "content")
	published := filepath.Join(work, "public")
	for _, dir := range []string{content, published} {
		if err := os.RemoveAll(dir); err != nil {
			return site.UnitResult{}, "", fmt.Errorf("%w: clear %s: %v", errTransient, dir, err)
		}
	}
	dst := filepath.Join(content, filepath.FromSlash(unit.ContentPath))
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return site.UnitResult{}, "", fmt.Errorf("%w: %v", errTransient, err)
	}
	if err := s.store.Materialize(ctx, artifact.Ref(unit.Tree), dst); err != nil {
		err = renders.MissingArtifact("documentation tree "+unit.Tree+" of "+unit.Key(), s.store, err)
		if pipeline.IsPermanent(err) {
			return site.UnitResult{}, "", err
		}
		return site.UnitResult{}, "", fmt.Errorf("%w: %v", errTransient, err)
	}
	res, err := site.RenderUnit(ctx, site.UnitOptions{
		ProjectDir: project, PublishDir: published,
		Generator: spec.Generator, Repositories: spec.Repositories, Unit: unit.ContentPath,
		Logger: s.log.With().Str("unit", unit.Key()).Logger(),
	})
	return res, published, err
}

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
