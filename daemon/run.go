package daemon

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/pipeline"
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

func (o *Options) defaults() {
	if o.ShutdownTimeout <= 0 {
		o.ShutdownTimeout = 10 * time.Second
	}
}

// Addresses are where a running daemon listens ("" for a server it does
// not run).
type Addresses struct {
	Docs, Webhook, Admin, LiveReload string
	Broker                           string // embedded broker URL ("" for an external one)
	Metrics                          string // a stage process's /metrics and /health
}

// Run runs the daemon until ctx is cancelled, then stops gracefully: no new
// triggers, servers drained, the running stage finishes or hands its
// message back, the broker closes. It returns nil after a clean stop.
func Run(ctx context.Context, cfg *config.Config, opts Options) error {
	opts.defaults()
	log := opts.Log
	// Every port is bound before anything starts.
	listeners, closeListeners, err := bindServers(cfg, EnabledServers(cfg))
	if err != nil {
		return err
	}
	broker, err := openBroker(ctx, cfg, log)
	if err != nil {
		closeListeners()
		return err
	}
	defer broker.Close()

	host, err := startStages(ctx, cfg, broker, pipeline.Registered(), log)
	if err != nil {
		closeListeners()
		return err
	}
	defer host.stop()
	ctl, err := startControl(cfg, broker, host.metrics, host.states, host.store, false, log)
	if err != nil {
		closeListeners()
		return err
	}
	servers, err := startServers(cfg, EnabledServers(cfg), listeners, broker, ctl, host.metrics, log)
	if err != nil {
		ctl.close()
		closeListeners()
		return err
	}
	addrs := servers.addrs
	addrs.Broker = broker.ClientURL()
	log.Info().Str("docs", addrs.Docs).Str("webhook", addrs.Webhook).Str("admin", addrs.Admin).
		Str("livereload", addrs.LiveReload).Str("broker", addrs.Broker).Msg("daemon listening")
	if opts.Ready != nil {
		opts.Ready(addrs)
	}
	ctl.begin(ctx, log)

	<-ctx.Done()
	log.Info().Msg("stopping: no new triggers, draining servers")
	ctl.close()
	servers.close(opts.ShutdownTimeout)
	host.stop()
	log.Info().Msg("stopped")
	return nil
}

// openBroker applies the broker rule for the daemon: broker_url when set;
// else a NATS server with JetStream already listening on
// daemon.embedded_broker (by default 127.0.0.1:4222, the spec's default
// broker URL), so an operator who runs NATS there needs no setting; else an
// embedded server listening there, with its store in the workspace so
// state survives restarts.
func openBroker(ctx context.Context, cfg *config.Config, log zerolog.Logger) (*pipeline.Broker, error) {
	if cfg.Broker.External() {
		return pipeline.OpenBroker(ctx, pipeline.BrokerOptions{URL: cfg.Broker.URL, Name: "docweave-daemon"})
	}
	layout := workspace.For(cfg)
	port := cfg.Daemon.EmbeddedBroker.Port
	if port == 0 {
		port = -1 // a free port
	} else {
		url, err := probeBroker(ctx, cfg.Daemon.EmbeddedBroker.Host, port)
		if err != nil {
			return nil, fmt.Errorf("broker: %w; enable JetStream there, set daemon.link_verification.broker_url, or move daemon.embedded_broker.port", err)
		}
		if url != "" {
			log.Info().Str("broker", url).Msg("using the NATS server already listening where the embedded broker would (set broker_url to make this explicit)")
			return pipeline.OpenBroker(ctx, pipeline.BrokerOptions{URL: url, Name: "docweave-daemon"})
		}
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

// openSharedBroker connects a process of a split deployment: it must meet
// the others on broker_url.
func openSharedBroker(ctx context.Context, cfg *config.Config, name string) (*pipeline.Broker, error) {
	if !cfg.Broker.External() {
		return nil, fmt.Errorf("daemon.link_verification.broker_url (nats_url) is not set; processes of a split deployment meet on a shared NATS server or cluster")
	}
	return pipeline.OpenBroker(ctx, pipeline.BrokerOptions{URL: cfg.Broker.URL, Name: name})
}
