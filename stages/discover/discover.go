// Package discover is the first stage of a build: it turns a build request
// into one clone job per repository, decides where each repository's
// content goes (the forge namespacing rule needs to see them all), and
// records the set of repositories the build must wait for before render.
package discover

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/forge"
	"github.com/docweave/docweave/pipeline"
)

// Name is the stage name.
const Name = "discover"

func init() { pipeline.Register(Name, New) }

// New builds the stage.
func New(d pipeline.Deps) (pipeline.Stage, error) {
	s := &stage{cfg: d.Config, builds: d.Builds}
	return pipeline.Stage{Name: Name, Subjects: []string{events.SubjectBuildRequested}, Handle: s.handle}, nil
}

type stage struct {
	cfg    *config.Config
	builds *pipeline.Builds
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
	paths := ContentPaths(s.cfg)
	var names []string
	for _, r := range s.cfg.Repositories {
		if len(req.Repositories) == 0 || slices.Contains(req.Repositories, r.Name) {
			names = append(names, r.Name)
		}
	}
	if len(names) == 0 {
		return nil, pipeline.Permanentf("build %s: no configured repository matches %v", req.BuildID, req.Repositories)
	}
	err := s.builds.Begin(ctx, pipeline.BuildState{
		BuildID:   req.BuildID,
		Reason:    req.Reason,
		Direct:    req.Direct,
		StartedAt: req.Time,
		Expected:  names,
		Timings:   events.Timings{Name: time.Since(start).Milliseconds()},
	})
	if err != nil {
		return nil, fmt.Errorf("discover: %w", err)
	}
	out := make([]events.Event, 0, len(names))
	for _, name := range names {
		job := paths[name]
		job.Header = events.Header{ID: "repo.clone:" + req.BuildID + ":" + name, BuildID: req.BuildID}
		out = append(out, &job)
	}
	return out, nil
}
