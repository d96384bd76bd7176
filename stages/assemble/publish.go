package assemble

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/internal/atomicdir"
	"github.com/docweave/docweave/internal/dirlock"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/renders"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/site"
	"github.com/docweave/docweave/spill"
)

// publish assembles a build whose units all have an outcome and swaps the
// site in, then reports it. A failed unit's last good output stands in for
// it when the saved state has one. Nothing is published when no unit has
// an output, when the assembly fails, or when a newer build has published
// already; the last good site stays in each case.
func (s *stage) publish(ctx context.Context, j *buildstate.RenderJoin) ([]events.Event, error) {
	start := time.Now()
	st, err := s.builds.Get(ctx, j.BuildID)
	if err != nil {
		return nil, err
	}
	out := &events.SiteRendered{
		Header:      events.Header{ID: "site.rendered:" + j.BuildID, BuildID: j.BuildID},
		OutcomesRef: j.Outcomes, Outcomes: j.OutcomeCount,
		Timings: events.Timings{},
		// The request's flags, for verifylinks.
		Direct: st.Direct, VerifyLinks: st.VerifyLinks,
	}
	fail := func(msg string) []events.Event {
		out.Issues = append(out.Issues, report.Issue{Code: report.CodeRenderFailed, Severity: report.SeverityError, Stage: Name, Message: msg})
		out.Timings[Name] = time.Since(start).Milliseconds()
		s.log.Error().Str("build_id", j.BuildID).Msg(msg)
		return []events.Event{out}
	}
	if st.Abandoned != "" {
		// The daemon gave up on this build while it waited; publishing it
		// now would put a build reported failed on the site.
		return fail("the build was abandoned (" + st.Abandoned + "); its site is not published"), nil
	}
	spec, err := renders.LoadSpec(ctx, s.store, j.Spec, s.scratch)
	if err != nil {
		return nil, err
	}
	rendered, err := s.builds.RenderOutcomes(ctx, j.BuildID)
	if err != nil {
		return nil, err
	}
	outcomes, err := s.withLastGood(ctx, rendered)
	if err != nil {
		return nil, err
	}
	var units []site.AssembledUnit
	for i, u := range outcomes {
		// Every unit's issues join the site's list, read whole from the
		// store when a unit had too many to carry; the runner bounds the
		// site's list again before site.rendered is published.
		issues, err := spill.LoadIssues(ctx, s.store, s.scratch, u.IssueList)
		if err != nil {
			return nil, renders.MissingArtifact("issues of unit "+u.Key, s.store, err)
		}
		out.Issues = append(out.Issues, issues...)
		// The unit keeps only the reference of a list stored aside: its
		// record names it, so the saved state keeps it from pruning.
		outcomes[i].IssueList = events.IssueList{IssuesRef: u.IssuesRef, IssuesTotal: u.IssuesTotal}
		if u.Output == "" {
			continue
		}
		facts, search, err := renders.LoadFacts(ctx, s.store, u.Facts, s.scratch)
		if err != nil {
			return nil, err
		}
		ref := artifact.Ref(u.Output)
		units = append(units, site.AssembledUnit{Path: u.ContentPath, ID: u.Output, Facts: facts, Search: search,
			Place: func(ctx context.Context, dir string) error { return s.store.Materialize(ctx, ref, dir) }})
		out.Pages += u.Pages
	}
	// What became of each unit travels by reference: the list grows with
	// the units.
	if out.UnitsRef, err = spill.PutList(ctx, s.store, s.scratch, outcomes); err != nil {
		return nil, fmt.Errorf("store the units of build %s: %w", j.BuildID, err)
	}
	out.Units = len(outcomes)
	if len(units) == 0 {
		return fail("no unit could be rendered; the previous site (if any) is kept"), nil
	}
	cross, err := s.crossUnitIssues(ctx, units, outcomes, spec)
	if err != nil {
		return nil, err
	}
	out.Issues = append(out.Issues, cross...)

	project, err := filepath.Abs(s.cfg.Output.Directory)
	if err != nil {
		return nil, pipeline.Permanent(err)
	}
	// One assembly at a time in this process, and in every process that
	// shares the output directory (replicas of one configuration on one
	// machine): they share its work space, and the check that no newer
	// build has published goes together with the swap that publishes.
	s.publishMu.Lock()
	defer s.publishMu.Unlock()
	if err := checkOutputDirectory(s.cfg, project); err != nil {
		return fail(err.Error()), nil
	}
	unlock, err := dirlock.Lock(filepath.Join(project, markerDir, lockFile))
	if err != nil {
		return fail(err.Error()), nil
	}
	defer unlock()
	if err := prepareOutputDirectory(s.cfg, project); err != nil {
		return fail(err.Error()), nil
	}
	remembered, err := s.rememberedURLs(ctx)
	if err != nil {
		return nil, err
	}
	next, placed, err := takeNext(project)
	if err != nil {
		return fail(fmt.Sprintf("the site could not be assembled; the previous site is kept: %v", err)), nil
	}
	res, err := site.Assemble(ctx, site.AssembleOptions{
		WorkDir:    filepath.Join(s.scratch, "assembly"),
		PublishDir: next,
		Placed:     placed,
		Generator:  spec.Generator, Repositories: spec.Repositories, Units: units,
		Remembered: remembered,
		Logger:     s.log.With().Str("build_id", j.BuildID).Logger(),
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return fail(fmt.Sprintf("the site could not be assembled; the previous site is kept: %v", err)), nil
	}
	out.Issues = append(out.Issues, conflictIssues(res.Conflicts)...)
	if out.URLs, err = renders.PutURLs(ctx, s.store, res.URLs, s.scratch); err != nil {
		return nil, err
	}
	if err := putPlaced(project, next, res.Placed); err != nil {
		return nil, err
	}
	// The message that reports the site must be sendable before the site
	// goes live: a site swapped in by a build that then fails to say so
	// would be served while its build is reported failed.
	if err := spill.Bound(ctx, s.store, s.scratch, out); err != nil {
		return nil, fmt.Errorf("the site was not published: %w", err)
	}
	hashes := res.Placed.FileHashes()
	entries := make([]artifact.Entry, len(hashes))
	for i, h := range hashes {
		entries[i] = artifact.Entry{Rel: h.Rel, Hash: h.Hash}
	}
	ref, files := artifact.TreeRef(entries), len(entries)
	// Where the store is shared, the site goes into it before it goes
	// live, from this process, which holds its files: docs servers and
	// publishreload replicas anywhere find it by its hash, so whichever
	// replica announces it, the site announced is the site served.
	if artifact.IsShared(s.store) {
		if err := uploadSite(ctx, s.store, next, ref); err != nil {
			return nil, err
		}
	}
	if s.states != nil {
		ok, err := s.states.ClaimPublish(ctx, j.BuildID)
		if err != nil {
			return nil, err
		}
		if !ok {
			out.Superseded = true
			out.Timings[Name] = time.Since(start).Milliseconds()
			s.log.Warn().Str("build_id", j.BuildID).Msg("a newer build has published already; this one's site is not published")
			return []events.Event{out}, nil
		}
	}
	public := filepath.Join(project, "public")
	if err := atomicdir.Exchange(next, public); err != nil {
		return fail(err.Error()), nil
	}
	forgetPlaced(project)
	out.OK, out.Site, out.Files = true, string(ref), files
	out.Timings[Name] = time.Since(start).Milliseconds()
	s.log.Info().Str("build_id", j.BuildID).Int("units", len(units)).Int("units_placed", res.PlacedUnits).
		Bool("pages_built", res.Built).Int("pages", out.Pages).Int("files", files).
		Int("pages_patched", res.Patched).Int64("duration_ms", out.Timings[Name]).Msg("site published")
	return []events.Event{out}, nil
}

// rememberedURLs are the URLs the last published site remembered: none
// without a saved state, with one saved before docweave remembered URLs,
// or when the list is no longer stored (then the build says so in its
// log and redirects no moved page).
func (s *stage) rememberedURLs(ctx context.Context) ([]events.PublishedURL, error) {
	if s.states == nil {
		return nil, nil
	}
	st, err := s.states.Head(ctx)
	if err != nil || st == nil || st.URLs == "" {
		return nil, err
	}
	urls, err := renders.LoadURLs(ctx, s.store, st.URLs, s.scratch)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		s.log.Warn().Err(err).Str("build_id", st.BuildID).Msg("the URLs the last site published could not be read; moved pages are not redirected in this build")
		return nil, nil
	}
	return urls, nil
}

// withLastGood returns the outcomes with each failed unit's last good
// output from the saved state filled in and marked stale, where there is
// one and it is still stored.
func (s *stage) withLastGood(ctx context.Context, units []events.UnitOutcome) ([]events.UnitOutcome, error) {
	var saved *buildstate.SiteState
	for i, u := range units {
		if u.Outcome != events.UnitOutcomeFailed || s.states == nil {
			continue
		}
		if saved == nil {
			st, err := s.states.Load(ctx)
			if err != nil {
				return nil, err
			}
			if st == nil {
				return units, nil
			}
			saved = st
		}
		last, ok := saved.Renders[u.Key]
		if !ok || last.Output == "" || last.ContentPath != u.ContentPath {
			continue
		}
		present := true
		for _, ref := range []string{last.Output, last.Facts} {
			has, err := s.store.Has(ctx, artifact.Ref(ref))
			if err != nil {
				return nil, err
			}
			present = present && has
		}
		if !present {
			continue
		}
		units[i].Output, units[i].Facts, units[i].Pages, units[i].Files, units[i].Stale = last.Output, last.Facts, last.Pages, last.Files, true
		for k := range units[i].Issues {
			if units[i].Issues[k].Code == report.CodeRenderFailed {
				units[i].Issues[k].Message += fmt.Sprintf("; its last good pages (build %s) stay on the site", saved.BuildID)
			}
		}
	}
	return units, nil
}

// conflictIssues reports the URLs two repositories claimed, each on the
// repository whose claim was dropped.
func conflictIssues(conflicts []site.URLConflict) []report.Issue {
	out := make([]report.Issue, 0, len(conflicts))
	for _, c := range conflicts {
		out = append(out, report.Issue{Code: report.CodeURLConflict, Severity: report.SeverityWarning, Stage: Name,
			Repository: c.Loser.Repository, Path: c.Loser.File, Message: c.Message()})
	}
	return out
}

// uploadSite puts the assembled site in dir into the shared store and
// checks that it is the site the assembly recorded (want).
func uploadSite(ctx context.Context, store artifact.Store, dir string, want artifact.Ref) error {
	files, err := artifact.ListDir(dir)
	if err != nil {
		return fmt.Errorf("upload the site: %w", err)
	}
	ref, err := store.PutTree(ctx, files)
	if err != nil {
		return fmt.Errorf("upload the site: %w", err)
	}
	if ref != want {
		return pipeline.Permanentf("upload the site: %s holds site %s, not the assembled %s", dir, ref, want)
	}
	return nil
}
