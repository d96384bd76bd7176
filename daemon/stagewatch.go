package daemon

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/docweave/docweave/report"
)

// stageWatch is what the coordinator needs to notice a build waiting on a
// stage that no live process runs.
type stageWatch struct {
	// live counts the live processes per stage.
	live func(context.Context) (map[string]int, error)
	// needed are the stages a build waits on, with the subjects each
	// consumes.
	needed map[string][]string
	// timeout is build.stage_timeout.
	timeout time.Duration
	// abandon marks a build given up on, so its site is not published if
	// its work resumes later.
	abandon func(ctx context.Context, buildID, why string) error
}

// watchStages checks, while a build runs, that every stage it needs has a
// live process. A stage missing for the whole of w.timeout (counted from
// the build's start or from when the stage went missing, whichever is
// later) fails the running build with STAGE_UNAVAILABLE, naming the stage
// and the subjects its work waits on. It runs until ctx ends.
func (c *Coordinator) watchStages(ctx context.Context, w stageWatch) {
	every := w.timeout / 6
	if every > 5*time.Second {
		every = 5 * time.Second
	}
	if every < 50*time.Millisecond {
		every = 50 * time.Millisecond
	}
	missingSince := map[string]time.Time{}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		c.mu.Lock()
		var id string
		var started time.Time
		if c.running != nil {
			id, started = c.running.ID, c.started
		}
		c.mu.Unlock()
		if id == "" {
			continue
		}
		lctx, cancel := context.WithTimeout(ctx, every)
		live, err := w.live(lctx)
		cancel()
		if err != nil {
			c.log.Debug().Err(err).Msg("stage processes not read")
			continue
		}
		now := time.Now()
		for _, stage := range uncovered(live, w.needed) {
			if _, seen := missingSince[stage]; !seen {
				missingSince[stage] = now
			}
		}
		for _, stage := range slices.Sorted(maps.Keys(missingSince)) {
			since := missingSince[stage]
			if live[stage] > 0 {
				delete(missingSince, stage)
				continue
			}
			if since.Before(started) {
				since = started
			}
			if now.Sub(since) >= w.timeout {
				c.stageUnavailable(ctx, w, id, stage)
				break
			}
		}
	}
}

// stageUnavailable fails build id: no process ran stage for the whole
// timeout.
func (c *Coordinator) stageUnavailable(ctx context.Context, w stageWatch, id, stage string) {
	msg := unavailableMessage(stage, w.needed[stage], w.timeout.String())
	c.log.Error().Str("build_id", id).Str("stage", stage).Strs("subjects", w.needed[stage]).Msg(msg)
	if w.abandon != nil {
		if err := w.abandon(ctx, id, "STAGE_UNAVAILABLE: no process ran stage "+stage); err != nil {
			c.log.Warn().Err(err).Str("build_id", id).Msg("the build could not be marked abandoned")
		}
	}
	now := time.Now().UTC()
	rep := report.Report{
		SchemaVersion: report.SchemaVersion, BuildID: id, Outcome: report.OutcomeFailed,
		FinishedAt:       now,
		StageDurationsMS: map[string]int64{},
		Repositories:     []report.Repository{},
		Issues:           []report.Issue{{Code: report.CodeStageUnavailable, Severity: report.SeverityError, Stage: stage, Message: msg}},
	}
	rep.CountIssues()
	c.finish(id, report.OutcomeFailed, "", &rep)
}
