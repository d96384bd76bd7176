package render

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/renders"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/site"
)

// Units of one build that wait for a render together are rendered in one
// Hugo build (site.RenderBatch): a Hugo build's fixed cost — its templates
// and configuration — is then paid once per batch, not once per unit,
// while every unit's output is the one it gets alone. Batches are small
// enough to keep memory bounded, and made only of what this process holds:
// the units of a build still spread over every render replica.
const (
	// batchUnits is the most units in one batch.
	batchUnits = 8
	// batchFiles is the most documentation files in one batch; a unit
	// larger than that renders alone.
	batchFiles = 600
	// batchWait is how long a render that could take more units waits
	// for them: the unit.render messages of a build arrive together.
	batchWait = 25 * time.Millisecond
	// inFlightPerSlot is how many messages a process holds per render
	// slot, so that a slot finds units to batch.
	inFlightPerSlot = 4
)

// job is one unit waiting to be rendered.
type job struct {
	in      *events.UnitRender
	spec    site.Spec
	address string
	start   time.Time
	done    chan jobResult
}

type jobResult struct {
	out events.UnitOutcome
	err error // transient or permanent: the message is not settled
}

// render hands a unit to the renders of this process and waits for its
// outcome. The handler that gets a free slot renders what is waiting then,
// its own unit or others'; the rest wait for theirs.
func (s *stage) render(ctx context.Context, j *job) (events.UnitOutcome, error) {
	s.queueMu.Lock()
	s.queue = append(s.queue, j)
	s.queueMu.Unlock()
	for {
		select {
		case r := <-j.done:
			return r.out, r.err
		case <-ctx.Done():
			return events.UnitOutcome{}, ctx.Err()
		case slot := <-s.slots:
			batch := s.takeBatch()
			if len(batch) > 0 {
				s.renderBatch(ctx, slot, batch)
			}
			s.slots <- slot
		}
	}
}

// takeBatch takes the waiting jobs that render together with the first:
// the same build spec, at most batchUnits units and batchFiles files. It
// waits batchWait for more when there is room.
func (s *stage) takeBatch() []*job {
	deadline := time.Now().Add(batchWait)
	for {
		s.queueMu.Lock()
		batch, rest, full := fitBatch(s.queue)
		if full || len(rest) > 0 || time.Now().After(deadline) || len(batch) == 0 {
			s.queue = rest
			s.queueMu.Unlock()
			return batch
		}
		s.queueMu.Unlock()
		time.Sleep(batchWait / 5)
	}
}

// fitBatch splits the queue into the batch of its first job and the rest,
// and says whether the batch is full.
func fitBatch(queue []*job) (batch, rest []*job, full bool) {
	if len(queue) == 0 {
		return nil, nil, false
	}
	first := queue[0]
	batch = []*job{first}
	files := first.in.Unit.DocFiles
	for _, j := range queue[1:] {
		if len(batch) < batchUnits && j.in.Spec == first.in.Spec && files+j.in.Unit.DocFiles <= batchFiles {
			batch = append(batch, j)
			files += j.in.Unit.DocFiles
			continue
		}
		rest = append(rest, j)
	}
	return batch, rest, len(batch) == batchUnits || files >= batchFiles
}

// renderBatch renders a batch in the slot's work directory, stores each
// unit's output and answers each job. A batch Hugo cannot build as a whole
// is rendered again unit by unit, so one unit's file never fails another.
func (s *stage) renderBatch(ctx context.Context, slot int, batch []*job) {
	if len(batch) > 1 {
		results, err := s.runBatch(ctx, slot, batch)
		if err == nil {
			for i, j := range batch {
				j.done <- results[i]
			}
			return
		}
		s.log.Info().Err(err).Int("units", len(batch)).Msg("batch not rendered as a whole; rendering its units one by one")
	}
	for _, j := range batch {
		results, err := s.runBatch(ctx, slot, []*job{j})
		if err != nil {
			j.done <- s.failed(j, err)
			continue
		}
		j.done <- results[0]
	}
}

// runBatch lays the batch's trees out, renders them and stores the
// outputs. An error is the batch's as a whole.
func (s *stage) runBatch(ctx context.Context, slot int, batch []*job) ([]jobResult, error) {
	work := filepath.Join(s.workRoot, fmt.Sprintf("slot-%d", slot))
	project := filepath.Join(work, "project")
	content := filepath.Join(project, "content")
	published := filepath.Join(work, "public")
	for _, dir := range []string{content, published} {
		if err := os.RemoveAll(dir); err != nil {
			return nil, fmt.Errorf("%w: clear %s: %v", errTransient, dir, err)
		}
	}
	opts := site.BatchOptions{ProjectDir: project, Generator: batch[0].spec.Generator, Repositories: batch[0].spec.Repositories}
	results := make([]jobResult, len(batch))
	for i, j := range batch {
		unit := j.in.Unit
		dst := filepath.Join(content, filepath.FromSlash(unit.ContentPath))
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return nil, fmt.Errorf("%w: %v", errTransient, err)
		}
		if err := s.store.Materialize(ctx, artifact.Ref(unit.Tree), dst); err != nil {
			err = renders.MissingArtifact("documentation tree "+unit.Tree+" of "+unit.Key(), s.store, err)
			if !pipeline.IsPermanent(err) {
				err = fmt.Errorf("%w: %v", errTransient, err)
			}
			if len(batch) == 1 {
				results[i] = jobResult{err: err}
				return results, nil
			}
			return nil, err
		}
		opts.Units = append(opts.Units, site.BatchUnit{Unit: unit.ContentPath, PublishDir: filepath.Join(published, fmt.Sprint(i))})
	}
	if len(batch) == 1 {
		opts.Logger = s.log.With().Str("unit", batch[0].in.Unit.Key()).Logger()
	} else {
		opts.Logger = s.log.With().Int("batch", len(batch)).Logger()
	}
	s.builds.Add(1)
	rendered, err := site.RenderBatch(ctx, opts)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if len(batch) == 1 {
			results[0] = s.failed(batch[0], err)
			return results, nil
		}
		return nil, err
	}
	for i, j := range batch {
		if rendered[i].Err != nil {
			results[i] = s.failed(j, rendered[i].Err)
			continue
		}
		out, err := s.stored(ctx, j, opts.Units[i].PublishDir, rendered[i])
		results[i] = jobResult{out: out, err: err}
	}
	return results, nil
}

// stored keeps a rendered unit's output and facts, records them under the
// unit's address and returns its outcome.
func (s *stage) stored(ctx context.Context, j *job, published string, res site.UnitResult) (events.UnitOutcome, error) {
	out := s.outcome(j)
	out.Outcome = events.UnitOutcomeRendered
	out.Pages, out.Files = res.Pages, res.Files
	out.Issues = pageIssues(res.Issues, []repoFiles{s.filesOf(j.in.Unit)})
	if err := s.keep(ctx, published, res, &out); err != nil {
		return out, err
	}
	out.DurationMS = time.Since(j.start).Milliseconds()
	if err := renders.PutRecord(ctx, s.store, out); err != nil {
		return out, err
	}
	s.log.Info().Str("build_id", j.in.BuildID).Str("unit", out.Key).Int("pages", out.Pages).
		Int("page_issues", len(res.Issues)).Int64("duration_ms", out.DurationMS).Msg("unit rendered")
	return out, nil
}

// failed is the answer for a unit that could not be rendered: its own
// failure as an outcome, or the error of this process's disk or of the
// store (transient) or of a permanent kind, for the runner.
func (s *stage) failed(j *job, err error) jobResult {
	if errors.Is(err, errTransient) || pipeline.IsPermanent(err) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return jobResult{err: err}
	}
	out := s.outcome(j)
	out.Outcome = events.UnitOutcomeFailed
	out.Error = err.Error()
	out.DurationMS = time.Since(j.start).Milliseconds()
	out.Issues = []report.Issue{{
		Code: report.CodeRenderFailed, Severity: report.SeverityError, Stage: Name,
		Repository: out.Repository, Version: out.Version,
		Message: "the unit could not be rendered: " + err.Error(),
	}}
	s.log.Error().Str("build_id", j.in.BuildID).Str("unit", out.Key).Err(err).Msg("unit not rendered")
	return jobResult{out: out}
}

// outcome is a job's outcome before its render.
func (s *stage) outcome(j *job) events.UnitOutcome {
	unit := j.in.Unit
	out := events.UnitOutcome{Key: unit.Key(), Repository: unit.Repository, ContentPath: unit.ContentPath, Address: j.address}
	if unit.Version != nil {
		out.Version = unit.Version.Name
	}
	return out
}
