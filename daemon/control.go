package daemon

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/robfig/cron/v3"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/metrics"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/workspace"
)

// control is the part of a daemon that decides when to build: the
// coordinator, the schedule, and what the admin and webhook servers see.
// Exactly one process of a deployment runs it.
type control struct {
	coord   *Coordinator
	backend *backend
	cron    *cron.Cron
	subs    []*nats.Subscription
}

func startControl(cfg *config.Config, broker *pipeline.Broker, m *metrics.Metrics, states *pipeline.States, store artifact.Store, log zerolog.Logger) (*control, error) {
	coord, err := NewCoordinator(broker.Conn, broker.JS, cfg.Hash(), log)
	if err != nil {
		return nil, err
	}
	be := newBackend(cfg, coord)
	be.lag = consumerLag(broker.JS, pipeline.Registered())
	coord.OnFinished = func(b Build) {
		be.record(b)
		if b.Report == nil {
			return
		}
		if b.SkipReason != "" {
			m.ObserveSkip("unchanged")
			return
		}
		m.ObserveBuild(*b.Report)
		if local, ok := store.(*artifact.Local); ok {
			go pruneArtifacts(states, local, log)
		}
		if s := cfg.Build.CloneStrategy; s == "update" || s == "auto" {
			go pruneCheckouts(cfg, states, log)
		}
	}
	c := cron.New(cron.WithParser(cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow)))
	entry, err := c.AddFunc(cfg.Daemon.Sync.Schedule, func() {
		if _, _, err := coord.Trigger(context.Background(), "cron", nil); err != nil && !errors.Is(err, ErrClosed) {
			log.Error().Err(err).Msg("scheduled build not requested")
		}
	})
	if err != nil {
		coord.Close()
		return nil, fmt.Errorf("daemon.sync.schedule: %w", err)
	}
	be.nextSync = func() time.Time { return c.Entry(entry).Next }
	linksSub, err := broker.Conn.Subscribe(events.SubjectLinksVerified, func(msg *nats.Msg) {
		if ev, err := events.Decode(msg.Subject, msg.Data); err == nil {
			be.linksVerified(ev.(*events.LinksVerified), m)
		}
	})
	if err != nil {
		coord.Close()
		return nil, fmt.Errorf("follow link verification: %w", err)
	}
	return &control{coord: coord, backend: be, cron: c, subs: []*nats.Subscription{linksSub}}, nil
}

// begin requests the start-up build and starts the schedule.
func (c *control) begin(ctx context.Context, log zerolog.Logger) {
	if _, _, err := c.coord.Trigger(ctx, "startup", nil); err != nil {
		log.Error().Err(err).Msg("start-up build not requested")
	}
	c.cron.Start()
}

// close stops the schedule and refuses further triggers.
func (c *control) close() {
	<-c.cron.Stop().Done()
	c.coord.Close()
	for _, s := range c.subs {
		_ = s.Unsubscribe()
	}
}

// pruneCheckouts removes cached checkouts (clone_strategy update or auto)
// of units that are neither configured repositories nor in the saved
// state — with versioning, branches and tags that went away — once they are
// an hour old. It cleans this process's workspace; acquire replicas of a
// split deployment keep their own.
func pruneCheckouts(cfg *config.Config, states *pipeline.States, log zerolog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := states.Load(ctx)
	if err != nil || st == nil {
		return
	}
	keep := map[string]bool{}
	for _, r := range cfg.Repositories {
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

// pruneArtifacts drops stored trees the saved state no longer refers to,
// once they are an hour old (younger ones may belong to a build in flight).
func pruneArtifacts(states *pipeline.States, store *artifact.Local, log zerolog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := states.Load(ctx)
	if err != nil || st == nil {
		return
	}
	keep := map[artifact.Ref]bool{}
	for _, o := range st.Repositories {
		keep[artifact.Ref(o.Tree)] = true
	}
	if n, err := store.Prune(keep, time.Hour); err != nil {
		log.Warn().Err(err).Msg("artifact store not pruned")
	} else if n > 0 {
		log.Info().Int("trees_removed", n).Msg("artifact store pruned")
	}
}
