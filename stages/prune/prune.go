// Package prune turns a repository's working copy into its documentation
// tree: it optionally prunes non-documentation entries from the workspace,
// collects the documentation roots (refusing anything that would leave the
// repository), stores them as a content-addressed artifact, and records the
// repository's outcome in the build's join. The arrival that completes the
// join also announces that the build's content is ready to render.
package prune

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/workspace"
)

// Name is the stage name.
const Name = "prune"

func init() { pipeline.Register(Name, New) }

// New builds the stage.
func New(d pipeline.Deps) (pipeline.Stage, error) {
	s := &stage{cfg: d.Config, layout: workspace.For(d.Config), store: d.Store, builds: d.Builds, log: d.Log}
	conc := d.Config.Build.CloneConcurrency
	if conc < 1 {
		conc = 1
	}
	return pipeline.Stage{Name: Name, Subjects: []string{events.SubjectRepoCloned}, Handle: s.handle, Concurrency: conc}, nil
}

type stage struct {
	cfg    *config.Config
	layout workspace.Layout
	store  artifact.Store
	builds *pipeline.Builds
	log    zerolog.Logger
}

func (s *stage) handle(ctx context.Context, ev events.Event) ([]events.Event, error) {
	start := time.Now()
	in, ok := ev.(*events.RepoCloned)
	if !ok {
		return nil, pipeline.Permanentf("prune: unexpected %T", ev)
	}
	outcome := events.RepoOutcome{
		Repository: in.Repository, Forge: in.Forge, ContentPath: in.ContentPath,
		Branch: in.Branch, Commit: in.Commit, Attempts: in.Attempts, Timings: events.Timings{},
	}
	for k, v := range in.Timings {
		outcome.Timings[k] = v
	}
	if in.Failure != nil {
		outcome.Failed = true
		outcome.Issues = []report.Issue{*in.Failure}
	} else if err := s.collect(ctx, in, &outcome); err != nil {
		return nil, err
	}
	outcome.Timings[Name] = time.Since(start).Milliseconds()

	st, complete, err := s.builds.Arrive(ctx, in.BuildID, outcome)
	if err != nil {
		return nil, err
	}
	out := []events.Event{&events.RepoPruned{
		Header:  events.Header{ID: "repo.pruned:" + in.BuildID + ":" + in.Repository, BuildID: in.BuildID},
		Outcome: st.Arrived[in.Repository],
	}}
	if complete {
		out = append(out, &events.ContentReady{
			Header:   events.Header{ID: "build.content_ready:" + in.BuildID, BuildID: in.BuildID},
			Outcomes: st.Outcomes(),
		})
	}
	return out, nil
}

// collect prunes the checkout, gathers its documentation roots into the
// artifact store and removes a per-build checkout afterwards. A checkout
// that is gone (another node, or a crash after removal) is a permanent
// error unless the tree was already stored.
func (s *stage) collect(ctx context.Context, in *events.RepoCloned, o *events.RepoOutcome) error {
	dir, err := s.layout.Dir(in.Checkout)
	if err != nil {
		return pipeline.Permanent(err)
	}
	if _, err := os.Stat(dir); err != nil {
		return pipeline.Permanentf("prune %s: checkout %s is not in this process's workspace (run prune beside clone): %v", in.Repository, in.Checkout, err)
	}
	repo, ok := s.cfg.Repository(in.Repository)
	if !ok {
		return pipeline.Permanentf("prune: repository %q is not in this process's configuration", in.Repository)
	}
	if s.cfg.Build.PruneNonDocPaths {
		issues, err := PruneWorkspace(dir, repo.DocPaths(), s.cfg.Build.PruneAllow, s.cfg.Build.PruneDeny)
		if err != nil {
			return fmt.Errorf("prune %s: %w", in.Repository, err)
		}
		o.Issues = append(o.Issues, stamp(issues, in.Repository)...)
	}
	files, issues, err := CollectDocs(dir, repo.DocPaths())
	if err != nil {
		return fmt.Errorf("collect docs of %s: %w", in.Repository, err)
	}
	o.Issues = append(o.Issues, stamp(issues, in.Repository)...)
	ref, err := s.store.PutTree(ctx, files)
	if err != nil {
		return fmt.Errorf("store docs of %s: %w", in.Repository, err)
	}
	o.Tree, o.DocFiles = string(ref), len(files)
	if workspace.IsFresh(in.Checkout) {
		if err := os.RemoveAll(dir); err != nil {
			s.log.Warn().Err(err).Str("repository", in.Repository).Msg("could not remove the build's checkout")
		}
	}
	return nil
}

func stamp(issues []report.Issue, repo string) []report.Issue {
	for i := range issues {
		issues[i].Stage, issues[i].Repository = Name, repo
		if issues[i].Severity == "" {
			issues[i].Severity = report.SeverityWarning
		}
	}
	return issues
}
