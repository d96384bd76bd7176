package assemble

import (
	"context"
	"time"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/renders"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/site"
	"github.com/docweave/docweave/spill"
)

// plan opens a build's render: the spec every unit is rendered with, each
// unit's content address, the outcomes of units whose output is stored,
// and one unit.render job for each other unit. When every unit is stored
// already, the site is assembled at once.
func (s *stage) plan(ctx context.Context, in *events.ContentReady) ([]events.Event, error) {
	start := time.Now()
	outcomes, err := spill.LoadList[events.RepoOutcome](ctx, s.store, s.scratch, in.OutcomesRef, in.Units)
	if err != nil {
		return nil, renders.MissingArtifact("outcomes of build "+in.BuildID, s.store, err)
	}
	repos := s.siteRepositories(outcomes)
	if len(repos) == 0 {
		return []events.Event{&events.SiteRendered{
			Header:      events.Header{ID: "site.rendered:" + in.BuildID, BuildID: in.BuildID},
			OutcomesRef: in.OutcomesRef, Outcomes: in.Units,
			IssueList: events.Issued(report.Issue{Code: report.CodeRenderFailed, Severity: report.SeverityError, Stage: Name,
				Message: "no repository produced documentation; the previous site (if any) is kept"}),
			Timings: events.Timings{Name: time.Since(start).Milliseconds()},
		}}, nil
	}
	spec := site.Spec{Generator: generatorFor(s.cfg), Repositories: repos}
	specRef, err := renders.PutSpec(ctx, s.store, spec, s.scratch)
	if err != nil {
		return nil, err
	}
	join := buildstate.RenderJoin{BuildID: in.BuildID, Spec: specRef, Outcomes: in.OutcomesRef, OutcomeCount: in.Units}
	var planned []buildstate.PlannedUnit
	stored := map[string]events.UnitOutcome{}
	var jobs []events.Event
	for _, o := range outcomes {
		if o.Failed || o.Tree == "" {
			continue
		}
		address := spec.Address(o.ContentPath, o.Tree)
		unit := buildstate.PlannedUnit{Key: o.Key(), Repository: o.Repository, ContentPath: o.ContentPath, Address: address}
		if o.Version != nil {
			unit.Version = o.Version.Name
		}
		planned = append(planned, unit)
		out, ok, err := renders.Stored(ctx, s.store, address)
		if err != nil {
			return nil, err
		}
		if ok {
			out.Key, out.Outcome, out.DurationMS = o.Key(), events.UnitOutcomeReused, 0
			stored[o.Key()] = out
			continue
		}
		jobs = append(jobs, &events.UnitRender{
			Header:  events.Header{ID: "unit.render:" + in.BuildID + ":" + o.Key(), BuildID: in.BuildID},
			Unit:    o,
			Spec:    specRef,
			Address: address,
		})
	}
	j, arrived, err := s.builds.BeginRender(ctx, join, planned, stored)
	if err != nil {
		return nil, err
	}
	s.log.Info().Str("build_id", in.BuildID).Int("units", len(planned)).Int("to_render", len(jobs)).
		Int("reused", len(stored)).Int64("duration_ms", time.Since(start).Milliseconds()).Msg("render planned")
	if j.Complete {
		return s.publish(ctx, j)
	}
	// On a redelivered content_ready the jobs go out again with the same
	// IDs; the broker drops the ones it has seen.
	var pending []events.Event
	for _, job := range jobs {
		if !arrived[job.(*events.UnitRender).Key()] {
			pending = append(pending, job)
		}
	}
	return pending, nil
}

// LiveReloadParam is the theme parameter that carries the live-reload port:
// set in daemon mode, so pages reload themselves after each publish.
const LiveReloadParam = site.LiveReloadPortParam

// generatorFor returns the site settings for Hugo: the configured ones, plus
// the live-reload port in daemon mode.
func generatorFor(cfg *config.Config) config.Generator {
	g := cfg.Generator
	if cfg.Mode != config.ModeDaemon || !cfg.Daemon.HTTP.LiveReloadEnabled || cfg.Daemon.HTTP.LiveReloadPort == 0 {
		return g
	}
	params := make(map[string]any, len(g.Params)+1)
	for k, v := range g.Params {
		params[k] = v
	}
	params[LiveReloadParam] = cfg.Daemon.HTTP.LiveReloadPort
	g.Params = params
	return g
}
