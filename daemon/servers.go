package daemon

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/httpsrv"
	"github.com/docweave/docweave/httpsrv/admin"
	"github.com/docweave/docweave/httpsrv/docs"
	"github.com/docweave/docweave/httpsrv/livereload"
	"github.com/docweave/docweave/httpsrv/webhook"
	"github.com/docweave/docweave/logging"
	"github.com/docweave/docweave/metrics"
	"github.com/docweave/docweave/pipeline/natsbroker"
)

// Server names, as `docweave serve --servers` takes them.
const (
	ServerDocs       = config.ServerDocs
	ServerWebhook    = config.ServerWebhook
	ServerAdmin      = config.ServerAdmin
	ServerLiveReload = config.ServerLiveReload
)

// AllServers are the daemon's four servers.
var AllServers = []string{ServerDocs, ServerWebhook, ServerAdmin, ServerLiveReload}

// EnabledServers are the servers the configuration runs: all four, or the
// first three when daemon.http.livereload_enabled is false.
func EnabledServers(cfg *config.Config) []string {
	if cfg.Daemon.HTTP.LiveReloadEnabled {
		return AllServers
	}
	return AllServers[:3]
}

// bindings are the configured addresses of the chosen servers: each on its
// port, on its own bind address or daemon.http.bind_address.
func bindings(cfg *config.Config, which []string) ([]httpsrv.Binding, error) {
	ports := map[string]int{
		ServerDocs: cfg.Daemon.HTTP.DocsPort, ServerWebhook: cfg.Daemon.HTTP.WebhookPort,
		ServerAdmin: cfg.Daemon.HTTP.AdminPort, ServerLiveReload: cfg.Daemon.HTTP.LiveReloadPort,
	}
	var out []httpsrv.Binding
	for _, name := range which {
		port, ok := ports[name]
		if !ok {
			return nil, fmt.Errorf("unknown server %q; known servers: %v", name, AllServers)
		}
		if name == ServerLiveReload && !cfg.Daemon.HTTP.LiveReloadEnabled {
			return nil, fmt.Errorf("the live-reload server is off (daemon.http.livereload_enabled: false); drop it from the servers or turn it on")
		}
		key := "daemon.http." + name + "_port"
		if where := cfg.Where(key); where != "" {
			key += " (" + where + ")"
		}
		out = append(out, httpsrv.Binding{Server: name, Host: cfg.Daemon.HTTP.BindHost(name), Port: port, Key: key})
	}
	return out, nil
}

// bindServers binds the chosen servers' ports, all or none, and returns a
// function that releases them if start-up fails later.
func bindServers(cfg *config.Config, which []string) ([]net.Listener, func(), error) {
	binds, err := bindings(cfg, which)
	if err != nil {
		return nil, nil, err
	}
	listeners, err := httpsrv.BindAll(binds)
	if err != nil {
		return nil, nil, err
	}
	return listeners, func() {
		for _, l := range listeners {
			l.Close()
		}
	}, nil
}

// serverSet is the running HTTP servers of a process.
type serverSet struct {
	servers []*http.Server
	hub     *livereload.Hub
	subs    []*nats.Subscription
	serving sync.WaitGroup
	addrs   Addresses
}

// startServers serves the chosen servers on their bound listeners. The
// webhook and admin servers need the control plane (ctl).
func startServers(cfg *config.Config, which []string, listeners []net.Listener, broker *natsbroker.Broker, ctl *controlPlane, m *metrics.Metrics, log zerolog.Logger) (*serverSet, error) {
	public := filepath.Join(cfg.Output.Directory, "public")
	set := &serverSet{}
	for i, name := range which {
		var h http.Handler
		switch name {
		case ServerDocs:
			h = docs.New(docs.Options{PublicDir: public, Log: log, Previews: ctl.previewSites()})
			set.addrs.Docs = listeners[i].Addr().String()
		case ServerWebhook:
			h = webhook.New(webhook.Options{
				Secrets: cfg.Daemon.Webhooks, Repositories: cfg.Repositories, CurrentRepositories: cfg.AllRepositories,
				Trigger: ctl.backend.webhookTrigger, Versioned: cfg.Versioning.Enabled, PullRequests: ctl.pullRequests(), Log: log,
			})
			set.addrs.Webhook = listeners[i].Addr().String()
		case ServerAdmin:
			h = admin.New(admin.Options{Token: cfg.Daemon.Admin.Token, PublicDir: public, Metrics: m, Backend: ctl.backend, Previews: ctl.previewAPI(), Log: log})
			set.addrs.Admin = listeners[i].Addr().String()
		case ServerLiveReload:
			set.hub = livereload.NewHub(livereload.Options{Log: log,
				MaxStreams: cfg.Daemon.HTTP.LiveReloadLimits.MaxStreams, MaxStreamsPerClient: cfg.Daemon.HTTP.LiveReloadLimits.MaxStreamsPerClient})
			hub := set.hub
			sub, err := broker.Subscribe(events.SubjectSitePublished, func(msg *nats.Msg) {
				if ev, err := events.Decode(msg.Subject, msg.Data); err == nil {
					p := ev.(*events.SitePublished)
					hub.Publish(livereload.Event{Name: livereload.EventReload, Data: livereload.Reload{
						BuildID: p.BuildID, Site: p.Site, Pages: p.Pages, Time: p.Time,
					}})
				}
			})
			if err != nil {
				return nil, fmt.Errorf("follow published sites: %w", err)
			}
			set.subs = append(set.subs, sub)
			h = hub.Handler()
			set.addrs.LiveReload = listeners[i].Addr().String()
		}
		// Streams lift the read timeout once their request is read, so
		// every server, live reload included, bounds slow request bodies.
		set.servers = append(set.servers, httpsrv.NewServer(h, cfg.Daemon.HTTP.Limits))
	}
	for i, srv := range set.servers {
		set.serving.Add(1)
		limited := httpsrv.LimitListener(listeners[i], cfg.Daemon.HTTP.Limits, log.With().Str(logging.FieldServer, which[i]).Logger())
		go func(s *http.Server, l net.Listener) {
			defer set.serving.Done()
			if err := s.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
				log.Error().Err(err).Str("addr", l.Addr().String()).Msg("server stopped")
			}
		}(srv, limited)
	}
	return set, nil
}

// close ends live-reload streams first (they would hold Shutdown up), then
// drains every server.
func (s *serverSet) close(timeout time.Duration) {
	for _, sub := range s.subs {
		_ = sub.Unsubscribe()
	}
	if s.hub != nil {
		s.hub.Close()
	}
	httpsrv.Shutdown(timeout, s.servers...)
	s.serving.Wait()
}
