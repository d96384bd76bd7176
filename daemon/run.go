package daemon

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/natsbroker"
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
	claim, err := claimSite(ctx, cfg, broker, roleDaemon, pipeline.Registered(), log)
	if err != nil {
		closeListeners()
		return err
	}
	defer claim.release()

	host, err := startStages(ctx, cfg, broker, pipeline.Registered(), log)
	if err != nil {
		closeListeners()
		return err
	}
	defer host.stop()
	ctl, err := startControl(cfg, broker, host.metrics, controlParts{fanins: host.builds, states: host.states, store: host.store, presence: claim.presence}, false, log)
	if err != nil {
		closeListeners()
		return err
	}
	if ctl.previews, err = startPreviews(ctx, cfg, host.states, host.store, log); err != nil {
		ctl.close()
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
	go warnRemoteProblems(ctx, cfg, log)

	<-ctx.Done()
	log.Info().Msg("stopping: no new triggers, draining servers")
	ctl.close()
	servers.close(opts.ShutdownTimeout)
	host.stop()
	log.Info().Msg("stopped")
	return nil
}

// openBroker applies the broker rule for the daemon (natsbroker.OptionsFor):
// broker.url when set; else an embedded broker with its store in the
// workspace, so state survives restarts, reached in-process only, or also
// at broker.embedded.listen with credentials. A listening broker records
// its address for the processes that join it.
func openBroker(ctx context.Context, cfg *config.Config, log zerolog.Logger) (*natsbroker.Broker, error) {
	opts, err := natsbroker.OptionsFor(cfg, natsbroker.RoleDaemon, "docweave-daemon")
	if err != nil {
		return nil, err
	}
	if opts.URL == "" {
		if err := os.MkdirAll(workspace.For(cfg).Root, 0o755); err != nil {
			return nil, fmt.Errorf("workspace %s: %w", workspace.For(cfg).Root, err)
		}
	}
	b, err := natsbroker.Open(ctx, opts)
	if err != nil {
		if opts.Listen != "" {
			return nil, fmt.Errorf("site %q: %w; another process listens there (another site's daemon?): give this daemon its own broker.embedded.listen, or leave it unset to keep the broker in-process", cfg.SiteName(), err)
		}
		return nil, fmt.Errorf("site %q: %w", cfg.SiteName(), err)
	}
	if url := b.ClientURL(); url != "" {
		if err := natsbroker.RecordEmbeddedURL(cfg, url); err != nil {
			b.Close()
			return nil, err
		}
		log.Info().Str("broker", url).Str("site", cfg.SiteName()).Msg("embedded broker listening; clients need its credentials")
	}
	return b, nil
}

// openSharedBroker connects a process of a split deployment (`docweave
// stage`, `serve`): it must meet the others on broker.url, or on the
// daemon's listening embedded broker.
func openSharedBroker(ctx context.Context, cfg *config.Config, name string) (*natsbroker.Broker, error) {
	opts, err := natsbroker.OptionsFor(cfg, natsbroker.RoleJoin, name)
	if err != nil {
		return nil, err
	}
	return natsbroker.Open(ctx, opts)
}
