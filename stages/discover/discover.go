// Package discover is the first stage of a build: it turns a build request
// into one clone job per repository — with versioning, one per chosen
// branch or tag, listed from the remote without a clone — decides where
// each one's content goes (the forge namespacing rule needs to see them
// all), and records the set of units the build must wait for before
// render.
//
// In daemon mode (skip_if_unchanged) it also takes the skip decision before
// any clone work: a repository whose remote head is the commit of the last
// good build is not cloned again — its saved documentation tree is reused —
// and when nothing at all changed the build is skipped.
package discover

import (
	"context"
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/discovery"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/forge"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/stages"
)

// Name is the stage name.
const Name = stages.Discover

func init() { pipeline.Register(Name, New) }

// New builds the stage.
func New(d pipeline.Deps) (pipeline.Stage, error) {
	s := &stage{cfg: d.Config, builds: d.FanIns, states: d.States, store: d.Store, log: d.Log, scratch: d.Scratch(Name)}
	return pipeline.Stage{Name: Name, Subjects: []string{events.SubjectBuildRequested}, Handle: pipeline.On(Name, s.handle),
		// Units reused from the saved state arrive at once (repo.pruned, and
		// content_ready when no unit needs a clone); a skip ends the build.
		Publishes: []string{events.SubjectRepoClone, events.SubjectRepoPruned, events.SubjectContentReady, events.SubjectBuildFinished}}, nil
}

type stage struct {
	cfg    *config.Config
	builds *buildstate.FanIns
	states *buildstate.States
	store  artifact.Store
	log    zerolog.Logger
	// scratch is the workspace for the outcome list stored aside.
	scratch string
}

// ContentPaths maps each repository name — configured or discovered from
// a forge — to its path under content/, by the namespace_forges rule.
func ContentPaths(cfg *config.Config) map[string]events.RepoClone {
	repos := cfg.AllRepositories()
	forges := make([]string, len(repos))
	for i, r := range repos {
		forges[i] = forge.FromURL(r.URL)
	}
	namespaced := forge.Namespace(cfg.Build.NamespaceForges, forges)
	out := make(map[string]events.RepoClone, len(repos))
	for i, r := range repos {
		path := r.Name
		if namespaced {
			path = forges[i] + "/" + r.Name
		}
		out[r.Name] = events.RepoClone{Repository: r.Name, Forge: forges[i], ContentPath: path}
	}
	return out
}

func (s *stage) handle(ctx context.Context, req *events.BuildRequested) ([]events.Event, error) {
	start := time.Now()
	if len(s.cfg.AllRepositories()) == 0 {
		return nil, pipeline.Permanentf("build %s: the configuration lists no repositories and discovery found none", req.BuildID)
	}
	log := s.log.With().Str("build_id", req.BuildID).Logger()
	units := s.units(ctx)
	var p plan
	if !req.Direct && s.cfg.ShouldSkipIfUnchanged() && s.states != nil {
		var err error
		if p, err = s.evaluate(ctx, units); err != nil {
			return nil, err
		}
		if p.skip {
			log.Info().Str("reason", p.reason).Dur("decision", time.Since(start)).Msg("build skipped")
			done := skipped(s.cfg, req, p, time.Since(start))
			forges, issues := discovery.ReportSection(s.cfg)
			done.Report.Forges, done.Report.Issues = forges, append(done.Report.Issues, issues...)
			return []events.Event{done}, nil
		}
		log.Info().Str("reason", p.reason).Int("reused", len(p.reuse)).Msg("build needed")
	}

	keys := make([]string, 0, len(units))
	for _, u := range units {
		keys = append(keys, u.key())
	}
	err := s.builds.Begin(ctx, buildstate.BuildState{
		BuildID:         req.BuildID,
		Reason:          req.Reason,
		Direct:          req.Direct,
		VerifyLinks:     req.VerifyLinks,
		ConfigHash:      s.cfg.Hash(),
		AcquisitionHash: s.cfg.AcquisitionHash(),
		StartedAt:       req.Time,
		Timings:         events.Timings{Name: time.Since(start).Milliseconds()},
	}, keys)
	if err != nil {
		return nil, fmt.Errorf("discover: %w", err)
	}
	var out []events.Event
	for _, u := range units {
		key := u.key()
		var o events.RepoOutcome
		switch saved, reuse := p.reuse[key]; {
		case u.failure != nil:
			// The versions could not be discovered: the repository is
			// recorded as failed and the rest of the site builds.
			log.Warn().Str("repository", key).Str("code", u.failure.Code).Msg(u.failure.Message)
			o = events.RepoOutcome{
				Repository: u.job.Repository, Forge: u.job.Forge, ContentPath: u.job.ContentPath,
				Failed: true, Attempts: u.failure.Attempts, IssueList: events.Issued(*u.failure), Timings: events.Timings{},
			}
		case reuse:
			// The unit is where the last good build left it: its saved
			// tree joins the build as if clone and prune had run.
			o = saved
			o.Reused, o.Attempts, o.IssueList = true, 0, u.job.IssueList
			o.ContentPath, o.Forge, o.Version = u.job.ContentPath, u.job.Forge, u.job.Version
			o.Timings = events.Timings{}
		default:
			job := u.job
			job.Header = events.Header{ID: "repo.clone:" + req.BuildID + ":" + key, BuildID: req.BuildID}
			out = append(out, &job)
			continue
		}
		kept, complete, err := s.builds.Arrive(ctx, req.BuildID, o)
		if err != nil {
			return nil, err
		}
		out = append(out, &events.RepoPruned{
			Header:  events.Header{ID: "repo.pruned:" + req.BuildID + ":" + key, BuildID: req.BuildID},
			Outcome: kept,
		})
		if complete {
			ready, err := stages.ContentReady(ctx, s.builds, s.store, s.scratch, req.BuildID)
			if err != nil {
				return nil, err
			}
			out = append(out, ready)
		}
	}
	return out, nil
}
