package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/httpsrv"
	"github.com/docweave/docweave/internal/atomicdir"
	"github.com/docweave/docweave/logging"
	"github.com/docweave/docweave/metrics"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/pipeline/natsbroker"
	"github.com/docweave/docweave/pipeline/natsbroker/roles"
)

// RunStages runs the named stages in this process against broker_url until
// ctx is cancelled (`docweave stage`). Replicas of a stage share its
// durable consumer, so each message is handled once. /health and /metrics
// are served on metricsAddr ("" serves nothing).
func RunStages(ctx context.Context, cfg *config.Config, names []string, metricsAddr string, opts Options) error {
	opts.defaults()
	log := opts.Log
	names = currentStageNames(names, log)
	var ln net.Listener
	if metricsAddr != "" {
		var err error
		if ln, err = net.Listen("tcp", metricsAddr); err != nil {
			return fmt.Errorf("metrics port %s: %w", metricsAddr, err)
		}
	}
	broker, err := openSharedBroker(ctx, cfg, "docweave-stage-"+strings.Join(names, "-"))
	if err != nil {
		if ln != nil {
			ln.Close()
		}
		return err
	}
	defer broker.Close()
	claim, err := claimSite(ctx, cfg, broker, roleStage, names, log)
	if err != nil {
		if ln != nil {
			ln.Close()
		}
		return err
	}
	defer claim.release()
	host, err := startStages(ctx, cfg, broker, names, log)
	if err != nil {
		if ln != nil {
			ln.Close()
		}
		return err
	}
	var srv *http.Server
	addrs := Addresses{}
	if ln != nil {
		srv = httpsrv.NewServer(healthAndMetrics(host.metrics), cfg.Daemon.HTTP.Limits)
		limited := httpsrv.LimitListener(ln, cfg.Daemon.HTTP.Limits, log.With().Str(logging.FieldServer, "metrics").Logger())
		go func() { _ = srv.Serve(limited) }()
		addrs.Metrics = ln.Addr().String()
	}
	log.Info().Strs("stages", names).Str("metrics", addrs.Metrics).Msg("stages running")
	go warnUncovered(ctx, cfg, claim.presence, log)
	if opts.Ready != nil {
		opts.Ready(addrs)
	}
	<-ctx.Done()
	log.Info().Msg("stopping: letting handlers in flight finish")
	host.stop()
	if srv != nil {
		httpsrv.Shutdown(opts.ShutdownTimeout, srv)
	}
	log.Info().Msg("stopped")
	return nil
}

func healthAndMetrics(m *metrics.Metrics) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"ok"}` + "\n"))
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{}))
	return mux
}

// RunServers runs the chosen HTTP servers against broker_url (`docweave
// serve`). A process with the webhook or admin server takes part in the
// control plane: such processes elect a leader (see control), which
// coordinates builds and runs the schedule while the others forward to it,
// so any number may run; docs and live-reload servers too. With build.artifact_store: broker, a docs server fetches every
// published site from the broker's object store and swaps it in.
func RunServers(ctx context.Context, cfg *config.Config, which []string, opts Options) error {
	opts.defaults()
	log := opts.Log
	listeners, closeListeners, err := bindServers(cfg, which)
	if err != nil {
		return err
	}
	broker, err := openSharedBroker(ctx, cfg, "docweave-serve")
	if err != nil {
		closeListeners()
		return err
	}
	defer broker.Close()
	claim, err := claimSite(ctx, cfg, broker, roleServe, nil, log)
	if err != nil {
		closeListeners()
		return err
	}
	defer claim.release()
	fanins, states, store, err := openStores(ctx, cfg, broker)
	if err != nil {
		closeListeners()
		return err
	}
	m := metrics.New()
	var ctl *controlPlane
	if slices.Contains(which, ServerWebhook) || slices.Contains(which, ServerAdmin) {
		// The servers show and match the repositories the leader
		// discovers, whichever process leads.
		if err := followDiscovered(ctx, cfg, broker.JS, log); err != nil {
			closeListeners()
			return err
		}
		if ctl, err = startControl(cfg, broker, m, controlParts{fanins: fanins, states: states, store: store, presence: claim.presence}, true, log); err != nil {
			closeListeners()
			return err
		}
		defer ctl.close()
	}
	warnPreviewsSplit(cfg, log)
	followCtx, stopFollowing := context.WithCancel(ctx)
	defer stopFollowing()
	if slices.Contains(which, ServerDocs) && artifact.IsShared(store) {
		if err := followSites(followCtx, broker.JS, store, cfg.Output.Directory, log); err != nil {
			closeListeners()
			return err
		}
	}
	servers, err := startServers(cfg, which, listeners, broker, ctl, m, log)
	if err != nil {
		closeListeners()
		return err
	}
	log.Info().Strs("servers", which).Msg("servers listening")
	if opts.Ready != nil {
		opts.Ready(servers.addrs)
	}
	if ctl != nil {
		ctl.begin(ctx, log)
	}
	<-ctx.Done()
	stopFollowing()
	servers.close(opts.ShutdownTimeout)
	return nil
}

// followSites keeps <outputDir>/public at the newest published site: it
// reads site.published from the stream (the last one first, so a replica
// that starts late serves the current site at once), fetches the site from
// the shared store and swaps it in atomically.
func followSites(ctx context.Context, js roles.Consumers, store artifact.Store, outputDir string, log zerolog.Logger) error {
	cons, err := js.OrderedConsumer(ctx, natsbroker.StreamName, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{events.SubjectSitePublished},
		DeliverPolicy:  jetstream.DeliverLastPolicy,
	})
	if err != nil {
		return fmt.Errorf("follow published sites: %w", err)
	}
	public := filepath.Join(outputDir, "public")
	current := ""
	cc, err := cons.Consume(func(msg jetstream.Msg) {
		ev, err := events.Decode(msg.Subject(), msg.Data())
		if err != nil {
			return
		}
		p := ev.(*events.SitePublished)
		if p.Site == current {
			return
		}
		if err := fetchSiteRetrying(ctx, store, artifact.Ref(p.Site), outputDir, public); err != nil {
			log.Error().Err(err).Str("build_id", p.BuildID).Str("site", p.Site).Msg("published site not fetched; still serving the previous one")
			return
		}
		current = p.Site
		log.Info().Str("build_id", p.BuildID).Str("site", p.Site).Msg("serving the newly published site")
	})
	if err != nil {
		return fmt.Errorf("follow published sites: %w", err)
	}
	go func() { <-ctx.Done(); cc.Stop() }()
	return nil
}

// fetchTries and fetchFirstWait bound how often a published site is
// fetched before it is given up until the next one: a read that fails
// during a broker leader election is tried again (about 8 s in all).
const (
	fetchTries     = 5
	fetchFirstWait = 500 * time.Millisecond
)

// fetchSiteRetrying is fetchSite, tried again after a failure with a
// doubling wait: site.published says the site is stored, so a failure is
// the broker's moment, not a missing site.
func fetchSiteRetrying(ctx context.Context, store artifact.Store, ref artifact.Ref, outputDir, public string) error {
	wait := fetchFirstWait
	for try := 1; ; try++ {
		err := fetchSite(ctx, store, ref, outputDir, public)
		if err == nil || try == fetchTries || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait *= 2
	}
}

func fetchSite(ctx context.Context, store artifact.Store, ref artifact.Ref, outputDir, public string) error {
	if err := os.MkdirAll(outputDir, 0o755); err != nil {
		return err
	}
	staging, err := os.MkdirTemp(outputDir, ".site-")
	if err != nil {
		return err
	}
	if err := store.Materialize(ctx, ref, staging); err != nil {
		os.RemoveAll(staging)
		if errors.Is(err, artifact.ErrNotFound) {
			return fmt.Errorf("site %s is not in the artifact store: %w", ref, err)
		}
		return err
	}
	return atomicdir.Swap(staging, public)
}

// currentStageNames replaces the former names of renamed stages by their
// names, with a warning asking to update the command line.
func currentStageNames(names []string, log zerolog.Logger) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		current, renamed := pipeline.CurrentName(n)
		if renamed {
			log.Warn().Str("stage", current).Str("former_name", n).
				Msgf("stage %q is now called %q: the former name still works; update --stages", n, current)
		}
		if !slices.Contains(out, current) {
			out = append(out, current)
		}
	}
	return out
}
