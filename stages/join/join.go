// Package join completes a repository's part of a build. The clone stage
// has already pruned the workspace and collected the documentation into a
// content-addressed tree; join checks that the tree is in the artifact
// store, turns the result into the repository's outcome and records it in
// the build's join (a JetStream KV entry updated with compare-and-set). The
// arrival that completes the join also announces that the build's content
// is ready to render. It needs no disk of its own, so any replica anywhere
// may take any repository.
package join

import (
	"context"
	"time"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/spill"
	"github.com/docweave/docweave/stages"
)

// Name is the stage name.
const Name = stages.Join

func init() { pipeline.Register(Name, New, stages.FormerJoin) }

// New builds the stage.
func New(d pipeline.Deps) (pipeline.Stage, error) {
	s := &stage{store: d.Store, builds: d.FanIns, scratch: d.Scratch("join")}
	conc := d.Config.Build.CloneConcurrency
	if conc < 1 {
		conc = 1
	}
	return pipeline.Stage{Name: Name, Subjects: []string{events.SubjectRepoCloned}, Handle: pipeline.On(Name, s.handle), Concurrency: conc,
		Publishes: []string{events.SubjectRepoPruned, events.SubjectContentReady}}, nil
}

type stage struct {
	store   artifact.Store
	builds  *buildstate.FanIns
	scratch string // for the issue lists read and stored aside
}

func (s *stage) handle(ctx context.Context, in *events.RepoCloned) ([]events.Event, error) {
	start := time.Now()
	outcome := events.RepoOutcome{
		Repository: in.Repository, Forge: in.Forge, ContentPath: in.ContentPath, Version: in.Version,
		Branch: in.Branch, Commit: in.Commit, CommitTime: in.CommitTime, Attempts: in.Attempts,
		Tree: in.Tree, DocFiles: in.DocFiles, IssueList: in.IssueList, Timings: events.Timings{},
	}
	for k, v := range in.Timings {
		outcome.Timings[k] = v
	}
	switch {
	case in.Failure != nil:
		outcome.Failed = true
		issues, err := spill.LoadIssues(ctx, s.store, s.scratch, in.IssueList)
		if err != nil {
			return nil, err
		}
		// The join's record keeps the list bounded too: a long one is
		// stored aside again with the failure first.
		if outcome.IssueList, err = spill.Issues(ctx, s.store, s.scratch, append([]report.Issue{*in.Failure}, issues...)); err != nil {
			return nil, err
		}
	default:
		has, err := s.store.Has(ctx, artifact.Ref(in.Tree))
		if err != nil {
			return nil, err
		}
		if !has {
			return nil, pipeline.Permanentf("join %s: tree %s is not in the artifact store (with stages in separate processes, set build.artifact_store: broker)", in.Key(), in.Tree)
		}
	}
	outcome.Timings[Name] = time.Since(start).Milliseconds()

	kept, complete, err := s.builds.Arrive(ctx, in.BuildID, outcome)
	if err != nil {
		return nil, err
	}
	out := []events.Event{&events.RepoPruned{
		Header:  events.Header{ID: "repo.pruned:" + in.BuildID + ":" + in.Key(), BuildID: in.BuildID},
		Outcome: kept,
	}}
	if complete {
		ready, err := stages.ContentReady(ctx, s.builds, s.store, s.scratch, in.BuildID)
		if err != nil {
			return nil, err
		}
		out = append(out, ready)
	}
	return out, nil
}
