// Package daemon runs docweave as a long-lived service: every stage on one
// broker, the four HTTP servers, and the triggers (start-up, cron,
// webhooks, admin API) that become build requests. The coordinator makes
// sure one site is never built twice at once: triggers that arrive while a
// build runs coalesce into a single follow-up build.
package daemon

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/natsbroker"
	"github.com/docweave/docweave/pipeline/natsbroker/roles"
	"github.com/docweave/docweave/report"
)

// Build states as the admin API shows them.
const (
	StateQueued  = "queued"
	StateRunning = "running"
)

// historySize is how many builds the coordinator remembers.
const historySize = 50

// ErrClosed is returned by Trigger after the daemon began to stop.
var ErrClosed = errors.New("daemon is shutting down")

// BuildRecord is what the coordinator knows about one build.
type BuildRecord struct {
	ID           string
	Reason       string
	Repositories []string // named by the triggers, for the record
	State        string   // queued, running, or the report's outcome
	SkipReason   string
	RequestedAt  time.Time
	FinishedAt   *time.Time
	Report       *report.Report
}

// Coordinator turns triggers into build requests, at most one build at a
// time, and follows builds to their end.
type Coordinator struct {
	js         roles.Publisher
	log        zerolog.Logger
	configHash string
	// OnFinished, when set, is called (outside the lock) for every
	// finished build, for metrics and status.
	OnFinished func(BuildRecord)
	// Stale is how long a build may run without finishing before the
	// coordinator gives up waiting for it (a lost message must not stop
	// the daemon from ever building again).
	Stale time.Duration

	mu      sync.Mutex
	closed  bool
	running *BuildRecord
	started time.Time
	pending *BuildRecord
	history []*BuildRecord
	byID    map[string]*BuildRecord
	sub     *nats.Subscription
	// stopWatch ends watchStages, if it runs.
	stopWatch context.CancelFunc
	// maintaining is true while Maintain's work runs: a build asked for
	// meanwhile waits as the follow-up (maintain.go).
	maintaining bool
}

// NewCoordinator follows build outcomes and publishes requests on the
// site's broker.
func NewCoordinator(b *natsbroker.Broker, configHash string, log zerolog.Logger) (*Coordinator, error) {
	c := &Coordinator{js: b.JS, log: log, configHash: configHash, byID: map[string]*BuildRecord{}, Stale: time.Hour}
	sub, err := b.Subscribe(events.AllSubjects, c.observe)
	if err != nil {
		return nil, fmt.Errorf("follow builds: %w", err)
	}
	c.sub = sub
	return c, nil
}

// Trigger asks for a build. When none runs, one starts now; otherwise the
// request joins the single follow-up build, which starts when the running
// one ends (coalesced is then true). The returned ID names the build that
// will serve the request.
func (c *Coordinator) Trigger(ctx context.Context, reason string, repositories []string) (id string, coalesced bool, err error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return "", false, ErrClosed
	}
	c.reapStale()
	if c.running == nil && c.pending != nil && !c.maintaining {
		// A follow-up waits but nothing runs (the running build was given
		// up on): the follow-up serves this request and starts now.
		b := c.pending
		c.pending = nil
		b.Reason = mergeReason(b.Reason, reason)
		b.Repositories = mergeNames(b.Repositories, repositories)
		c.markRunning(b)
		c.mu.Unlock()
		if err := c.start(ctx, b); err != nil {
			return "", false, err
		}
		return b.ID, true, nil
	}
	if c.running != nil || c.maintaining {
		if c.pending == nil {
			c.pending = c.record(reason, repositories)
		} else {
			c.pending.Reason = mergeReason(c.pending.Reason, reason)
			c.pending.Repositories = mergeNames(c.pending.Repositories, repositories)
		}
		id := c.pending.ID
		c.mu.Unlock()
		c.log.Info().Str("build_id", id).Str("reason", reason).Msg("build running (or the artifact store being pruned); request coalesced into the follow-up build")
		return id, true, nil
	}
	// Marked running before the lock is released: a trigger arriving a
	// moment later must see this build and coalesce, never start a second.
	b := c.record(reason, repositories)
	c.markRunning(b)
	c.mu.Unlock()
	if err := c.start(ctx, b); err != nil {
		return "", false, err
	}
	return b.ID, false, nil
}

// Build returns a build by ID.
func (c *Coordinator) Build(id string) (BuildRecord, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.byID[id]
	if !ok {
		return BuildRecord{}, false
	}
	return *b, true
}

// Recent returns the remembered builds, newest first.
func (c *Coordinator) Recent() []BuildRecord {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]BuildRecord, 0, len(c.history))
	for i := len(c.history) - 1; i >= 0; i-- {
		out = append(out, *c.history[i])
	}
	return out
}

// Idle reports whether no build runs or waits.
func (c *Coordinator) Idle() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.running == nil && c.pending == nil && !c.maintaining
}

// Close stops accepting triggers and following builds.
func (c *Coordinator) Close() {
	c.mu.Lock()
	c.closed = true
	stop := c.stopWatch
	c.mu.Unlock()
	if stop != nil {
		stop()
	}
	_ = c.sub.Unsubscribe()
}

// watch starts watchStages until Close.
func (c *Coordinator) watch(w stageWatch) {
	ctx, cancel := context.WithCancel(context.Background())
	c.mu.Lock()
	c.stopWatch = cancel
	c.mu.Unlock()
	go c.watchStages(ctx, w)
}

// record creates a queued build; the caller holds the lock.
func (c *Coordinator) record(reason string, repositories []string) *BuildRecord {
	b := &BuildRecord{ID: events.NewBuildID(), Reason: reason, Repositories: mergeNames(nil, repositories), State: StateQueued, RequestedAt: time.Now().UTC()}
	c.history = append(c.history, b)
	c.byID[b.ID] = b
	if len(c.history) > historySize {
		delete(c.byID, c.history[0].ID)
		c.history = c.history[1:]
	}
	return b
}

// markRunning makes b the running build; the caller holds the lock.
func (c *Coordinator) markRunning(b *BuildRecord) {
	b.State = StateRunning
	c.running, c.started = b, time.Now()
}

// start publishes the request of a build already marked running.
func (c *Coordinator) start(ctx context.Context, b *BuildRecord) error {
	c.mu.Lock()
	req := &events.BuildRequested{
		Header:       events.Header{ID: "build.requested:" + b.ID, BuildID: b.ID},
		Reason:       b.Reason,
		Repositories: b.Repositories,
		ConfigHash:   c.configHash,
	}
	c.mu.Unlock()
	if err := pipeline.Publish(ctx, c.js, req); err != nil {
		c.finish(b.ID, report.OutcomeFailed, "", nil)
		return fmt.Errorf("request build %s: %w", b.ID, err)
	}
	c.log.Info().Str("build_id", b.ID).Str("reason", b.Reason).Msg("build requested")
	return nil
}

// observe follows the pipeline for the running build's end.
func (c *Coordinator) observe(m *nats.Msg) {
	if m.Subject != events.SubjectBuildFinished && m.Subject != events.SubjectStageFailed {
		return
	}
	ev, err := events.Decode(m.Subject, m.Data)
	if err != nil {
		return
	}
	switch e := ev.(type) {
	case *events.BuildFinished:
		rep := e.Report
		c.finish(e.BuildID, rep.Outcome, rep.SkipReason, &rep)
	case *events.StageFailed:
		c.log.Error().Str("build_id", e.BuildID).Str("stage", e.Stage).Str("reason", e.Reason).Msg("build failed in the pipeline")
		c.finish(e.BuildID, report.OutcomeFailed, "", nil)
	}
}

// finish records a build's end and starts the follow-up build, if any.
func (c *Coordinator) finish(id, outcome, skipReason string, rep *report.Report) {
	c.mu.Lock()
	b, known := c.byID[id]
	if !known || c.running == nil || c.running.ID != id {
		c.mu.Unlock()
		return
	}
	now := time.Now().UTC()
	b.State, b.SkipReason, b.FinishedAt, b.Report = outcome, skipReason, &now, rep
	c.running = nil
	next := c.pending
	if next != nil && !c.closed {
		c.pending = nil
		c.markRunning(next)
	} else {
		next = nil
	}
	done := *b
	c.mu.Unlock()
	if c.OnFinished != nil {
		c.OnFinished(done)
	}
	if next != nil {
		if err := c.start(context.Background(), next); err != nil {
			c.log.Error().Err(err).Msg("could not start the follow-up build")
		}
	}
}

// reapStale gives up on a running build that has not finished within
// Stale; the caller holds the lock.
func (c *Coordinator) reapStale() {
	if c.running == nil || time.Since(c.started) < c.Stale {
		return
	}
	c.log.Error().Str("build_id", c.running.ID).Dur("after", c.Stale).Msg("build never finished; no longer waiting for it")
	now := time.Now().UTC()
	c.running.State, c.running.FinishedAt = report.OutcomeFailed, &now
	c.running = nil
}

// mergeReason joins the reasons of coalesced triggers: "cron+webhook".
func mergeReason(a, b string) string {
	if b == "" || slices.Contains(strings.Split(a, "+"), b) {
		return a
	}
	return a + "+" + b
}

func mergeNames(a, b []string) []string {
	out := slices.Clone(a)
	for _, n := range b {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}
