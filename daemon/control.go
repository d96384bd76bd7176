package daemon

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/robfig/cron/v3"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/daemon/preview"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/metrics"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/pipeline/natsbroker"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/spill"
	"github.com/docweave/docweave/workspace"
)

// controlPlane is the part of a daemon that decides when to build: the
// coordinator, the schedule, and what the admin and webhook servers see.
//
// A single daemon leads alone. In a split deployment every `serve` process
// with the webhook or admin server runs a controlPlane, and they elect one
// leader through a lease in the KV bucket docweave-control: only the
// leader runs the coordinator, the schedule and the start-up build; the
// others forward triggers and build queries to it over NATS, so any of
// them may take webhooks and admin requests, and another takes over when
// the leader stops.
type controlPlane struct {
	cfg     *config.Config
	broker  *natsbroker.Broker
	log     zerolog.Logger
	builds  *leadOrForward
	backend *backend
	cron    *cron.Cron
	// forges scans the forges[] while this process leads (nil without).
	forges *forgeScanner
	subs   []*nats.Subscription
	// onFinished runs for every build the leader's coordinator finishes.
	onFinished func(BuildRecord)
	// shared is true in a split deployment: leadership is a lease, and
	// the leader answers the other processes' requests.
	shared bool
	// watch is what the coordinator needs to fail a build that waits on
	// a stage no process runs.
	watch stageWatch
	// previews are the daemon's previews (nil when off or in a split
	// deployment's process: see docs/previews.md).
	previews *preview.Manager

	mu            sync.Mutex
	coord         *Coordinator
	forwardedSubs []*nats.Subscription
	stopLease     context.CancelFunc
	leaseDone     chan struct{}
}

func startControl(cfg *config.Config, broker *natsbroker.Broker, m *metrics.Metrics, parts controlParts, shared bool, log zerolog.Logger) (*controlPlane, error) {
	states, store := parts.states, parts.store
	needed, err := neededStages(cfg)
	if err != nil {
		return nil, err
	}
	c := &controlPlane{cfg: cfg, broker: broker, log: log, shared: shared, builds: &leadOrForward{remote: leaderForwarder{broker: broker}},
		watch: stageWatch{live: parts.presence.live, needed: needed, timeout: cfg.Build.StageTimeout, abandon: parts.fanins.Abandon}}
	c.backend = newBackend(cfg, c.builds)
	c.backend.lag = consumerLag(broker.JS, pipeline.Registered())
	c.backend.processes = parts.presence.live
	m.SetStageProcessesSource(func() (map[string]int, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		return parts.presence.live(ctx)
	})
	c.backend.leads = func() bool { return c.builds.leads() }
	c.onFinished = func(b BuildRecord) {
		if b.Report == nil || b.SkipReason != "" {
			return
		}
		switch st := store.(type) {
		case *artifact.Local:
			go pruneArtifacts(states, st, b.RequestedAt, log)
		case *artifact.Objects:
			go c.pruneObjects(states, st)
		}
		if s := cfg.Build.CloneStrategy; s == "update" || s == "auto" {
			go pruneCheckouts(cfg, states, log)
		}
	}
	forges, err := newForgeScanner(cfg, broker.JS, log)
	if err != nil {
		return nil, err
	}
	c.forges = forges
	c.cron = cron.New(cron.WithParser(cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow)))
	entry, err := c.cron.AddFunc(cfg.Daemon.Sync.Schedule, c.scheduledSync)
	if err != nil {
		return nil, fmt.Errorf("daemon.sync.schedule: %w", err)
	}
	c.backend.nextSync = func() time.Time {
		if !c.builds.leads() {
			return time.Time{}
		}
		return c.cron.Entry(entry).Next
	}
	// Every control process follows finished builds and link figures for
	// its own /status and /metrics, leader or not.
	finishedSub, err := broker.Subscribe(events.SubjectBuildFinished, func(msg *nats.Msg) {
		if ev, err := events.Decode(msg.Subject, msg.Data); err == nil {
			c.backend.buildFinished(wholeReport(ev.(*events.BuildFinished), store, cfg.WorkspaceRoot(), log), m)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("follow finished builds: %w", err)
	}
	linksSub, err := broker.Subscribe(events.SubjectLinksVerified, func(msg *nats.Msg) {
		if ev, err := events.Decode(msg.Subject, msg.Data); err == nil {
			c.backend.linksVerified(ev.(*events.LinksVerified), m)
		}
	})
	if err != nil {
		_ = finishedSub.Unsubscribe()
		return nil, fmt.Errorf("follow link verification: %w", err)
	}
	c.subs = []*nats.Subscription{finishedSub, linksSub}
	if !shared {
		// A single daemon leads from the start: its servers accept
		// triggers as soon as they listen.
		if err := c.takeLead(); err != nil {
			unsubscribeAll(c.subs)
			return nil, err
		}
	}
	if controlStarted != nil {
		controlStarted(c)
	}
	return c, nil
}

// controlParts are the shared parts a control plane works with.
type controlParts struct {
	fanins   *buildstate.FanIns
	states   *buildstate.States
	store    artifact.Store
	presence presence
}

// controlStarted, when set (by tests), sees every control that starts, so
// a test can run a tick of the schedule without waiting a minute for it.
var controlStarted func(*controlPlane)

// scheduledSync is the work of every tick of daemon.sync.schedule: scan
// the forges, then request a build (which skips what did not change).
func (c *controlPlane) scheduledSync() {
	c.forges.scan("cron")
	if _, _, err := c.builds.Trigger(context.Background(), "cron", nil); err != nil && !errors.Is(err, ErrClosed) {
		c.log.Error().Err(err).Msg("scheduled build not requested")
	}
}

// begin starts leading — at once for a single daemon, by election in a
// split deployment.
func (c *controlPlane) begin(ctx context.Context, log zerolog.Logger) {
	if !c.shared {
		c.startLeading()
		return
	}
	kv, err := openControlBucket(ctx, c.broker.JS, c.cfg.Build.StreamReplicas)
	if err != nil {
		log.Error().Err(err).Msg("control-plane lease unavailable; this process will not lead")
		return
	}
	lctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	c.mu.Lock()
	c.stopLease, c.leaseDone = stop, make(chan struct{})
	done := c.leaseDone
	c.mu.Unlock()
	go func() {
		defer close(done)
		runLease(lctx, kv, leaseHolder(), log, c.lead, c.stepDown)
	}()
}

// lead is what a process does when it takes the lease: take the lead,
// then start leading.
func (c *controlPlane) lead() {
	if err := c.takeLead(); err != nil {
		c.log.Error().Err(err).Msg("this process holds the lease but cannot coordinate builds")
		return
	}
	c.startLeading()
}

// takeLead starts the coordinator and, in a split deployment, answers the
// other processes' requests with it.
func (c *controlPlane) takeLead() error {
	coord, err := NewCoordinator(c.broker, c.cfg.Hash(), c.log)
	if err != nil {
		return fmt.Errorf("start the coordinator: %w", err)
	}
	coord.OnFinished = c.onFinished
	if c.watch.timeout > 0 {
		coord.watch(c.watch)
	}
	var subs []*nats.Subscription
	if c.shared {
		if subs, err = answerForwarded(c.broker, coord); err != nil {
			coord.Close()
			return err
		}
	}
	c.mu.Lock()
	c.coord, c.forwardedSubs = coord, subs
	c.mu.Unlock()
	c.builds.set(coord)
	return nil
}

// startLeading starts the schedule, scans the forges and requests the
// start-up build, retrying in the background when the request fails.
func (c *controlPlane) startLeading() {
	c.cron.Start()
	c.forges.scan("startup")
	if _, _, err := c.builds.Trigger(context.Background(), "startup", nil); err != nil {
		go c.retryStartup(err)
	}
}

// startupAttempts bounds the requests of the start-up build. A broker
// cluster still electing its streams' leaders refuses a publish for some
// seconds, and a daemon that gave up at once would serve nothing until
// the next trigger.
const startupAttempts = 6

// retryStartup requests the start-up build again, after 1, 2, 4, 8 and
// 16 s, while this process leads, until a request is taken.
func (c *controlPlane) retryStartup(err error) {
	wait := time.Second
	for attempt := 2; ; attempt++ {
		c.log.Warn().Err(err).Int("attempt", attempt-1).Dur("retry_in", wait).Msg("start-up build not requested yet; retrying")
		time.Sleep(wait)
		if !c.builds.leads() {
			return // another process leads now, and requested its own
		}
		if _, _, err = c.builds.Trigger(context.Background(), "startup", nil); err == nil {
			return
		}
		if attempt == startupAttempts || errors.Is(err, ErrClosed) {
			c.log.Error().Err(err).Int("attempt", attempt).Msg("start-up build not requested")
			return
		}
		wait *= 2
	}
}

// stepDown stops leading: the schedule, the answers and the coordinator.
func (c *controlPlane) stepDown() {
	<-c.cron.Stop().Done()
	c.mu.Lock()
	coord, subs := c.coord, c.forwardedSubs
	c.coord, c.forwardedSubs = nil, nil
	c.mu.Unlock()
	c.builds.set(nil)
	unsubscribeAll(subs)
	if coord != nil {
		coord.Close()
	}
}

// close stops the schedule and refuses further triggers; a leader hands
// its lease back so another process takes over at once.
func (c *controlPlane) close() {
	c.mu.Lock()
	stop, done := c.stopLease, c.leaseDone
	c.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	} else {
		c.stepDown()
	}
	unsubscribeAll(c.subs)
}

// pruneCheckouts removes cached checkouts (clone_strategy update or auto)
// of units that are neither configured repositories nor in the saved
// state — with versioning, branches and tags that went away — once they are
// an hour old. It cleans this process's workspace; acquire replicas of a
// split deployment keep their own.
func pruneCheckouts(cfg *config.Config, states *buildstate.States, log zerolog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := states.Load(ctx)
	if err != nil || st == nil {
		return
	}
	keep := map[string]bool{}
	for _, r := range cfg.AllRepositories() {
		keep[workspace.CheckoutName(r.Name, "")] = true
	}
	for _, o := range st.Repositories {
		if o.Version != nil {
			keep[workspace.CheckoutName(o.Repository, o.Version.Slug)] = true
		}
	}
	if n, err := workspace.For(cfg).PruneCache(keep, time.Hour); err != nil {
		log.Warn().Err(err).Msg("checkouts not pruned")
	} else if n > 0 {
		log.Info().Int("checkouts_removed", n).Msg("checkouts of versions no longer built removed")
	}
}

// wholeReport is a finished build's whole report: the one the message
// carries, or, when that one left repositories or issues out, the whole
// one it refers to (every repository's status follows it). A whole report
// that cannot be read leaves the carried one, with a warning.
func wholeReport(ev *events.BuildFinished, store artifact.Store, workspace string, log zerolog.Logger) report.Report {
	if ev.ReportRef == "" || store == nil {
		return ev.Report
	}
	var whole report.Report
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := spill.Load(ctx, store, filepath.Join(workspace, "control"), ev.ReportRef, &whole); err != nil {
		log.Warn().Err(err).Str("build_id", ev.BuildID).Msg("the whole report could not be read; the status follows the report the message carried")
		return ev.Report
	}
	return whole
}
