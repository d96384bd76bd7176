package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/robfig/cron/v3"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/httpsrv"
	"github.com/docweave/docweave/httpsrv/admin"
	"github.com/docweave/docweave/httpsrv/docs"
	"github.com/docweave/docweave/httpsrv/livereload"
	"github.com/docweave/docweave/httpsrv/webhook"
	"github.com/docweave/docweave/metrics"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/workspace"
)

// Options tune a daemon beyond its configuration.
type Options struct {
	Log zerolog.Logger
	// Ready, when set, receives the bound addresses once every server
	// listens (tests use it to find random ports).
	Ready func(Addresses)
	// ShutdownTimeout bounds the graceful stop of the HTTP servers.
	ShutdownTimeout time.Duration
}

// Addresses are where a running daemon listens.
type Addresses struct {
	Docs, Webhook, Admin, LiveReload string
	Broker                           string // embedded broker URL ("" for an external one)
}

// Run runs the daemon until ctx is cancelled, then stops gracefully: no new
// triggers, servers drained, the running stage finishes or hands its
// message back, the broker closes. It returns nil after a clean stop.
func Run(ctx context.Context, cfg *config.Config, opts Options) error {
	log := opts.Log
	if opts.ShutdownTimeout <= 0 {
		opts.ShutdownTimeout = 10 * time.Second
	}
	h := cfg.Daemon.HTTP
	// Every port is bound before anything starts.
	listeners, err := httpsrv.BindAll([]httpsrv.Binding{
		{Server: "docs", Port: h.DocsPort},
		{Server: "webhook", Port: h.WebhookPort},
		{Server: "admin", Port: h.AdminPort},
		{Server: "livereload", Port: h.LiveReloadPort},
	})
	if err != nil {
		return err
	}
	closeListeners := func() {
		for _, l := range listeners {
			l.Close()
		}
	}

	layout := workspace.For(cfg)
	broker, err := openBroker(ctx, cfg, layout)
	if err != nil {
		closeListeners()
		return err
	}
	defer broker.Close()

	core, err := startCore(ctx, cfg, layout, broker, log)
	if err != nil {
		closeListeners()
		return err
	}

	public := filepath.Join(cfg.Output.Directory, "public")
	hub := livereload.NewHub(livereload.Options{Log: log})
	reloadSub, err := broker.Conn.Subscribe(events.SubjectSitePublished, func(m *nats.Msg) {
		if ev, err := events.Decode(m.Subject, m.Data); err == nil {
			p := ev.(*events.SitePublished)
			hub.Publish(livereload.Event{Name: "reload", Data: map[string]any{
				"build_id": p.BuildID, "site": p.Site, "pages": p.Pages, "time": p.Time,
			}})
		}
	})
	if err != nil {
		closeListeners()
		core.stop()
		return fmt.Errorf("follow published sites: %w", err)
	}
	defer reloadSub.Unsubscribe()
	linksSub, err := broker.Conn.Subscribe(events.SubjectLinksVerified, func(m *nats.Msg) {
		if ev, err := events.Decode(m.Subject, m.Data); err == nil {
			core.backend.linksVerified(ev.(*events.LinksVerified), core.metrics)
		}
	})
	if err != nil {
		closeListeners()
		core.stop()
		return fmt.Errorf("follow link verification: %w", err)
	}
	defer linksSub.Unsubscribe()

	backend := core.backend
	servers := []*http.Server{
		httpsrv.NewServer(docs.New(docs.Options{PublicDir: public, Log: log})),
		httpsrv.NewServer(webhook.New(webhook.Options{
			Secrets:      cfg.Daemon.Webhooks,
			Repositories: cfg.Repositories,
			Trigger:      backend.webhookTrigger,
			BuildOnTags:  cfg.Versioning.Enabled,
			Log:          log,
		})),
		httpsrv.NewServer(admin.New(admin.Options{
			Token: cfg.Daemon.Admin.Token, PublicDir: public, Metrics: core.metrics, Backend: backend,
			Log: log,
		})),
		httpsrv.NewServer(hub.Handler()),
	}
	servers[3].ReadTimeout = 0 // server-sent events stream for as long as the reader stays
	var serving sync.WaitGroup
	for i, s := range servers {
		serving.Add(1)
		go func(s *http.Server, l net.Listener) {
			defer serving.Done()
			if err := s.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
				log.Error().Err(err).Str("addr", l.Addr().String()).Msg("server stopped")
			}
		}(s, listeners[i])
	}
	addrs := Addresses{
		Docs: listeners[0].Addr().String(), Webhook: listeners[1].Addr().String(),
		Admin: listeners[2].Addr().String(), LiveReload: listeners[3].Addr().String(),
		Broker: broker.ClientURL(),
	}
	log.Info().Str("docs", addrs.Docs).Str("webhook", addrs.Webhook).Str("admin", addrs.Admin).
		Str("livereload", addrs.LiveReload).Str("broker", addrs.Broker).Msg("daemon listening")
	if opts.Ready != nil {
		opts.Ready(addrs)
	}

	if _, _, err := core.coord.Trigger(ctx, "startup", nil); err != nil {
		log.Error().Err(err).Msg("start-up build not requested")
	}
	core.cron.Start()

	<-ctx.Done()
	log.Info().Msg("stopping: no new triggers, draining servers")
	cronDone := core.cron.Stop()
	core.coord.Close()
	hub.Close()
	httpsrv.Shutdown(opts.ShutdownTimeout, servers...)
	serving.Wait()
	<-cronDone.Done()
	core.stop()
	log.Info().Msg("stopped")
	return nil
}

// openBroker applies the broker rule for the daemon: broker_url when set,
// else an embedded server listening on daemon.embedded_broker with its store
// in the workspace, so state survives restarts.
func openBroker(ctx context.Context, cfg *config.Config, layout workspace.Layout) (*pipeline.Broker, error) {
	if cfg.Daemon.LinkVerification.BrokerURLSet {
		return pipeline.OpenBroker(ctx, pipeline.BrokerOptions{URL: cfg.Daemon.LinkVerification.BrokerURL, Name: "docweave-daemon"})
	}
	port := cfg.Daemon.EmbeddedBroker.Port
	if port == 0 {
		port = -1 // a free port
	}
	if err := os.MkdirAll(layout.Root, 0o755); err != nil {
		return nil, fmt.Errorf("workspace %s: %w", layout.Root, err)
	}
	b, err := pipeline.OpenBroker(ctx, pipeline.BrokerOptions{
		StoreDir: layout.Broker(), Listen: true,
		ListenHost: cfg.Daemon.EmbeddedBroker.Host, ListenPort: port, Name: "docweave-daemon",
	})
	if err != nil {
		return nil, fmt.Errorf("broker port %d: %w", cfg.Daemon.EmbeddedBroker.Port, err)
	}
	return b, nil
}

// core is the daemon without its HTTP servers: stages, coordinator, cron.
type core struct {
	coord   *Coordinator
	backend *backend
	metrics *metrics.Metrics
	cron    *cron.Cron
	stop    func()
}

func startCore(ctx context.Context, cfg *config.Config, layout workspace.Layout, broker *pipeline.Broker, log zerolog.Logger) (*core, error) {
	if err := pipeline.Provision(ctx, broker.JS, 1); err != nil {
		return nil, err
	}
	builds, err := pipeline.OpenBuilds(ctx, broker.JS)
	if err != nil {
		return nil, err
	}
	states, err := pipeline.OpenStates(ctx, broker.JS)
	if err != nil {
		return nil, err
	}
	store, err := artifact.NewLocal(layout.Artifacts())
	if err != nil {
		return nil, err
	}
	stages, err := pipeline.Build(pipeline.Registered(), pipeline.Deps{
		Config: cfg, Store: store, Builds: builds, States: states, Workspace: layout.Root, Log: log,
	})
	if err != nil {
		return nil, err
	}
	m := metrics.New()
	m.SetConsumerLagSource(consumerLag(broker.JS, stages))
	runner := pipeline.NewRunner(broker.JS, log, stages)
	runner.Observe = func(d pipeline.Delivery) { m.ObserveDelivery(d.Stage, d.Outcome, d.Duration) }
	runCtx, stopRunner := context.WithCancel(context.WithoutCancel(ctx))
	runnerDone := make(chan error, 1)
	go func() { runnerDone <- runner.Run(runCtx) }()

	coord, err := NewCoordinator(broker.Conn, broker.JS, cfg.Hash(), log)
	if err != nil {
		stopRunner()
		<-runnerDone
		return nil, err
	}
	be := newBackend(cfg, coord)
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
		go pruneArtifacts(states, store, log)
	}
	c := cron.New(cron.WithParser(cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow)))
	entry, err := c.AddFunc(cfg.Daemon.Sync.Schedule, func() {
		if _, _, err := coord.Trigger(context.Background(), "cron", nil); err != nil && !errors.Is(err, ErrClosed) {
			log.Error().Err(err).Msg("scheduled build not requested")
		}
	})
	if err != nil {
		stopRunner()
		<-runnerDone
		return nil, fmt.Errorf("daemon.sync.schedule: %w", err)
	}
	be.nextSync = func() time.Time { return c.Entry(entry).Next }
	return &core{coord: coord, backend: be, metrics: m, cron: c, stop: func() {
		stopRunner()
		<-runnerDone
	}}, nil
}

// consumerLag reads each stage's durable consumer at scrape time.
func consumerLag(js jetstream.JetStream, stages []pipeline.Stage) func() map[string]metrics.ConsumerLag {
	return func() map[string]metrics.ConsumerLag {
		out := map[string]metrics.ConsumerLag{}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		for _, st := range stages {
			c, err := js.Consumer(ctx, pipeline.StreamName, pipeline.ConsumerName(st.Name))
			if err != nil {
				continue
			}
			info, err := c.Info(ctx)
			if err != nil {
				continue
			}
			out[st.Name] = metrics.ConsumerLag{Pending: info.NumPending, AckPending: uint64(info.NumAckPending), Redelivered: uint64(info.NumRedelivered)}
		}
		return out
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
