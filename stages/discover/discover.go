// Package discover is the first stage of a build: it turns a build request
// into one clone job per repository, decides where each repository's
// content goes (the forge namespacing rule needs to see them all), and
// records the set of repositories the build must wait for before render.
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

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/forge"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
)

// Name is the stage name.
const Name = "discover"

func init() { pipeline.Register(Name, New) }

// New builds the stage.
func New(d pipeline.Deps) (pipeline.Stage, error) {
	s := &stage{cfg: d.Config, builds: d.Builds, states: d.States, store: d.Store, log: d.Log}
	return pipeline.Stage{Name: Name, Subjects: []string{events.SubjectBuildRequested}, Handle: s.handle}, nil
}

type stage struct {
	cfg    *config.Config
	builds *pipeline.Builds
	states *pipeline.States
	store  artifact.Store
	log    zerolog.Logger
}

// ContentPaths maps each repository name to its path under content/, by
// the namespace_forges rule.
func ContentPaths(cfg *config.Config) map[string]events.RepoClone {
	forges := make([]string, len(cfg.Repositories))
	for i, r := range cfg.Repositories {
		forges[i] = forge.FromURL(r.URL)
	}
	namespaced := forge.Namespace(cfg.Build.NamespaceForges, forges)
	out := make(map[string]events.RepoClone, len(cfg.Repositories))
	for i, r := range cfg.Repositories {
		path := r.Name
		if namespaced {
			path = forges[i] + "/" + r.Name
		}
		out[r.Name] = events.RepoClone{Repository: r.Name, Forge: forges[i], ContentPath: path}
	}
	return out
}

func (s *stage) handle(ctx context.Context, ev events.Event) ([]events.Event, error) {
	start := time.Now()
	req, ok := ev.(*events.BuildRequested)
	if !ok {
		return nil, pipeline.Permanentf("discover: unexpected %T", ev)
	}
	if len(s.cfg.Repositories) == 0 {
		return nil, pipeline.Permanentf("build %s: the configuration lists no repositories", req.BuildID)
	}
	log := s.log.With().Str("build_id", req.BuildID).Logger()
	var p plan
	if !req.Direct && s.cfg.ShouldSkipIfUnchanged() && s.states != nil {
		var err error
		if p, err = s.evaluate(ctx); err != nil {
			return nil, err
		}
		if p.skip {
			log.Info().Str("reason", p.reason).Dur("decision", time.Since(start)).Msg("build skipped")
			return []events.Event{skipped(req, p, time.Since(start))}, nil
		}
		log.Info().Str("reason", p.reason).Int("reused", len(p.reuse)).Msg("build needed")
	}

	names := make([]string, 0, len(s.cfg.Repositories))
	for _, r := range s.cfg.Repositories {
		names = append(names, r.Name)
	}
	err := s.builds.Begin(ctx, pipeline.BuildState{
		BuildID:    req.BuildID,
		Reason:     req.Reason,
		Direct:     req.Direct,
		ConfigHash: s.cfg.Hash(),
		StartedAt:  req.Time,
		Expected:   names,
		Timings:    events.Timings{Name: time.Since(start).Milliseconds()},
	})
	if err != nil {
		return nil, fmt.Errorf("discover: %w", err)
	}
	paths := ContentPaths(s.cfg)
	var out []events.Event
	for _, name := range names {
		saved, reuse := p.reuse[name]
		if !reuse {
			job := paths[name]
			job.Header = events.Header{ID: "repo.clone:" + req.BuildID + ":" + name, BuildID: req.BuildID}
			out = append(out, &job)
			continue
		}
		// The repository is where the last good build left it: its saved
		// tree joins the build as if clone and prune had run.
		o := saved
		o.Reused, o.Attempts, o.Issues = true, 0, nil
		o.ContentPath, o.Forge = paths[name].ContentPath, paths[name].Forge
		o.Timings = events.Timings{}
		st, complete, err := s.builds.Arrive(ctx, req.BuildID, o)
		if err != nil {
			return nil, err
		}
		out = append(out, &events.RepoPruned{
			Header:  events.Header{ID: "repo.pruned:" + req.BuildID + ":" + name, BuildID: req.BuildID},
			Outcome: st.Arrived[name],
		})
		if complete {
			out = append(out, &events.ContentReady{
				Header:   events.Header{ID: "build.content_ready:" + req.BuildID, BuildID: req.BuildID},
				Outcomes: st.Outcomes(),
			})
		}
	}
	return out, nil
}
