package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/rs/zerolog"
	"github.com/spf13/cobra"
	"k8s.io/client-go/kubernetes"

	"github.com/docweave/docweave/config"
	httpingress "github.com/docweave/docweave/httpsrv/ingress"
	"github.com/docweave/docweave/ingress"
	"github.com/docweave/docweave/logging"
)

func init() { registerCommand(newIngressCommand) }

func newIngressCommand(g *globalFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "ingress",
		Short: "Serve the ingress listing interface (GET /v1/ingresses)",
		Long: `ingress serves the hosts and paths of a cluster's Ingress objects with a
reachability value for each, on ingress.port (and ingress.bind_address, by
default every interface):

  GET /v1/ingresses  the listing; needs Authorization: Bearer <API key>
  GET /openapi.json  the OpenAPI 3.1 description (no key)
  GET /health        liveness
  GET /ready         200 once the source has synced, else 503
  GET /metrics       Prometheus metrics

ingress.source.type selects where the objects come from: "kubernetes" watches
the API server (in-cluster, or ingress.source.kubeconfig), "file" reads what
"kubectl get ingress,service,endpointslice -A -o yaml" prints and reloads it
when it changes. API keys come from ingress.api_keys and
ingress.api_keys_file; the file is re-read when it changes, for rotation.

SIGINT or SIGTERM stops the server gracefully. See docs/ingress.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			log, err := g.logger()
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			cfg, err := config.Load(g.configPath, config.ModeIngress)
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if err := runIngress(ctx, cfg.Ingress, log, ingressRuntime{}); err != nil {
				return &exitError{code: 1, err: err}
			}
			return nil
		},
	}
}

// ingressRuntime holds what tests replace; the zero value is production.
type ingressRuntime struct {
	host        string               // "" binds ingress.bind_address
	kubeClient  kubernetes.Interface // nil: build one from the configuration
	onListening func(addr net.Addr)  // called once the port is bound
	poll        time.Duration        // file and key polling; 0 for the defaults
}

// keyPollInterval is how often the API key file is checked for rotation.
const keyPollInterval = 5 * time.Second

// runIngress serves the ingress interface until ctx ends or the source
// fails for good. The order matters: keys and handler are checked first,
// then the port is bound (a port in use fails here, before anything runs),
// then the source starts and the server serves — /ready turns 200 when the
// source has published its first listing.
func runIngress(ctx context.Context, in config.Ingress, baseLog zerolog.Logger, rt ingressRuntime) error {
	// The handler adds the server field to its own lines; the command's
	// lines get it here, once.
	log := baseLog.With().Str(logging.FieldServer, "ingress").Logger()

	keySource := httpingress.KeySource{Static: httpingress.KeysFromList("ingress.api_keys", in.APIKeys), File: in.APIKeysFile}
	keyList, err := keySource.Load()
	if err != nil {
		return err
	}
	keys, err := httpingress.NewKeySet(keyList)
	if err != nil {
		return err
	}

	registry := prometheus.NewRegistry()
	registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	metrics, err := ingress.NewMetrics(registry)
	if err != nil {
		return err
	}
	store := ingress.NewStore(metrics)

	source, err := newIngressSource(in.Source, store, log, rt)
	if err != nil {
		return err
	}
	handler, err := httpingress.NewHandler(httpingress.Options{
		Listing: store, Keys: keys, CacheControl: in.CacheControl, Registry: registry, Logger: baseLog,
	})
	if err != nil {
		return err
	}
	host := rt.host
	if host == "" {
		host = in.BindAddress
	}
	ln, err := httpingress.Listen(host, in.Port)
	if err != nil {
		return err
	}
	if rt.onListening != nil {
		rt.onListening(ln.Addr())
	}
	log.Info().Str("source", in.Source.Type).Int("api_keys", keys.Len()).Str("cache_control", in.CacheControl).
		Msg("ingress interface starting")

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var sourceErr error
	wg.Add(2)
	go func() {
		defer wg.Done()
		if err := source.Run(ctx); err != nil {
			sourceErr = err
			log.Error().Err(err).Msg("ingress source stopped; shutting down")
			cancel()
		}
	}()
	go func() {
		defer wg.Done()
		interval := rt.poll
		if interval == 0 {
			interval = keyPollInterval
		}
		keySource.Watch(ctx, keys, interval, log)
	}()
	serveErr := httpingress.Serve(ctx, ln, handler, in.Limits, log)
	cancel()
	wg.Wait()
	return errors.Join(sourceErr, serveErr)
}

// ingressSource is what both sources offer the command.
type ingressSource interface {
	Run(ctx context.Context) error
}

func newIngressSource(src config.IngressSource, store *ingress.Store, log zerolog.Logger, rt ingressRuntime) (ingressSource, error) {
	switch src.Type {
	case "file", "":
		return &ingress.FileSource{Path: src.Path, Interval: rt.poll, Store: store, Logger: log}, nil
	case "kubernetes":
		client := rt.kubeClient
		if client == nil {
			var err error
			if client, err = ingress.NewClientset(src.Kubeconfig); err != nil {
				return nil, err
			}
		}
		return &ingress.KubernetesSource{
			Client: client, Namespace: src.Namespace, LabelSelector: src.LabelSelector, Store: store, Logger: log,
		}, nil
	default:
		return nil, fmt.Errorf("ingress.source.type: %q is not one of file, kubernetes", src.Type)
	}
}
