// Package clone is the acquisition stage: it brings one repository's
// working copy into the workspace (fresh clone, or update of a cached one)
// and reports the commit it got. A repository that cannot be acquired is a
// result, not a stage failure: the report records it and the build goes on.
package clone

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/gitx"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/workspace"
)

// Name is the stage name.
const Name = "clone"

func init() { pipeline.Register(Name, New) }

// New builds the stage; its concurrency is clone_concurrency, bounded by
// the number of repositories.
func New(d pipeline.Deps) (pipeline.Stage, error) {
	s := &stage{cfg: d.Config, layout: workspace.For(d.Config), log: d.Log}
	conc := d.Config.Build.CloneConcurrency
	if n := len(d.Config.Repositories); n > 0 && conc > n {
		conc = n
	}
	return pipeline.Stage{
		Name: Name, Subjects: []string{events.SubjectRepoClone}, Handle: s.handle,
		Concurrency: conc, AckWait: time.Minute,
	}, nil
}

type stage struct {
	cfg    *config.Config
	layout workspace.Layout
	log    zerolog.Logger
}

func (s *stage) handle(ctx context.Context, ev events.Event) ([]events.Event, error) {
	start := time.Now()
	job, ok := ev.(*events.RepoClone)
	if !ok {
		return nil, pipeline.Permanentf("clone: unexpected %T", ev)
	}
	repo, ok := s.cfg.Repository(job.Repository)
	if !ok {
		return nil, pipeline.Permanentf("clone: repository %q is not in this process's configuration", job.Repository)
	}
	strategy := s.cfg.Build.CloneStrategy
	key := workspace.CacheKey(repo.Name)
	if strategy == "" || strategy == "fresh" {
		strategy = "fresh"
		key = workspace.FreshKey(job.BuildID, repo.Name)
	}
	dir, err := s.layout.Dir(key)
	if err != nil {
		return nil, pipeline.Permanent(err)
	}
	if err := os.MkdirAll(s.layout.Root, 0o755); err != nil {
		return nil, err
	}
	log := s.log.With().Str("build_id", job.BuildID).Str("repository", repo.Name).Logger()
	res, err := gitx.Acquire(ctx, gitx.Request{
		URL: repo.URL, Branch: repo.Branch, Depth: s.cfg.Build.ShallowDepth, Auth: repo.Auth,
		Dir: dir, Strategy: strategy,
		HardResetOnDiverge: s.cfg.Build.HardResetOnDiverge, CleanUntracked: s.cfg.Build.CleanUntracked,
	}, gitx.RetryPolicy{
		MaxRetries: s.cfg.Build.MaxRetries, Backoff: s.cfg.Build.RetryBackoff,
		Initial: s.cfg.Build.RetryInitialDelay, Max: s.cfg.Build.RetryMaxDelay,
	})
	out := &events.RepoCloned{
		Header:      events.Header{ID: "repo.cloned:" + job.BuildID + ":" + repo.Name, BuildID: job.BuildID},
		Repository:  repo.Name,
		Forge:       job.Forge,
		ContentPath: job.ContentPath,
		Timings:     events.Timings{Name: time.Since(start).Milliseconds()},
	}
	if err != nil {
		out.Failure = failure(repo, err)
		out.Attempts = out.Failure.Attempts
		log.Warn().Str("code", out.Failure.Code).Bool("transient", out.Failure.Transient).Int("attempts", out.Attempts).Msg(out.Failure.Message)
		if strategy == "fresh" {
			_ = os.RemoveAll(dir)
		}
		return []events.Event{out}, nil
	}
	out.Branch, out.Commit, out.Checkout, out.Attempts = res.Branch, res.Commit, key, res.Attempts
	log.Info().Str("commit", res.Commit).Str("branch", res.Branch).Int("attempts", res.Attempts).Msg("repository acquired")
	return []events.Event{out}, nil
}

// failure turns an acquisition error into a report issue; gitx has already
// redacted credentials from the message.
func failure(repo config.Repository, err error) *report.Issue {
	is := &report.Issue{
		Code: report.CodeCloneFailed, Severity: report.SeverityError, Stage: Name,
		Repository: repo.Name, Message: err.Error(), Attempts: 1,
	}
	var gerr *gitx.Error
	if errors.As(err, &gerr) {
		is.Code, is.Transient = gerr.Code, gerr.Transient
		if gerr.Attempts > 0 {
			is.Attempts = gerr.Attempts
		}
	}
	return is
}
