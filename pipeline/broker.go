package pipeline

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// BrokerOptions say which broker to use. When URL is set every mode connects
// to it (so subscribers of a shared broker see a direct build's events);
// otherwise a server is embedded: listening on ListenHost:ListenPort when
// Listen is true (the daemon), in-process only when it is false (a direct
// build).
type BrokerOptions struct {
	// URL is broker_url: one URL or a comma-separated cluster list, nats://
	// or tls://, credentials allowed as user:password@host.
	URL string
	// StoreDir is the embedded server's JetStream directory.
	StoreDir string
	// Listen makes the embedded server accept network clients.
	Listen     bool
	ListenHost string
	ListenPort int // -1 picks a random free port
	// Name identifies this process's connection in server monitoring.
	Name string
}

// Broker is a live connection to JetStream, with the embedded server it
// started, if any.
type Broker struct {
	Conn     *nats.Conn
	JS       jetstream.JetStream
	embedded *server.Server
}

// OpenBroker connects as the options say.
func OpenBroker(ctx context.Context, opts BrokerOptions) (*Broker, error) {
	if opts.URL != "" {
		return connectExternal(ctx, opts)
	}
	return startEmbedded(opts)
}

// Embedded reports whether the broker is a NATS server inside this process.
func (b *Broker) Embedded() bool { return b.embedded != nil }

// ClientURL is the URL other processes use to reach an embedded server that
// listens; "" for an external broker or an in-process-only server.
func (b *Broker) ClientURL() string {
	if b.embedded == nil || b.embedded.Addr() == nil {
		return ""
	}
	return b.embedded.ClientURL()
}

// Close drains the connection and stops the embedded server.
func (b *Broker) Close() {
	if b.Conn != nil {
		_ = b.Conn.Drain()
		deadline := time.Now().Add(5 * time.Second)
		for !b.Conn.IsClosed() && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		b.Conn.Close()
	}
	if b.embedded != nil {
		b.embedded.Shutdown()
		b.embedded.WaitForShutdown()
	}
}

func startEmbedded(opts BrokerOptions) (*Broker, error) {
	if opts.StoreDir == "" {
		return nil, errors.New("embedded broker: a store directory is required")
	}
	if err := os.MkdirAll(opts.StoreDir, 0o755); err != nil {
		return nil, fmt.Errorf("embedded broker store %s: %w", opts.StoreDir, err)
	}
	sopts := &server.Options{
		ServerName: "docweave-embedded",
		JetStream:  true,
		StoreDir:   opts.StoreDir,
		NoSigs:     true,
		NoLog:      true,
		DontListen: !opts.Listen,
		Host:       opts.ListenHost,
		Port:       opts.ListenPort,
	}
	if sopts.Host == "" {
		sopts.Host = "127.0.0.1"
	}
	if sopts.Port == 0 {
		sopts.Port = 4222
	}
	ns, err := server.NewServer(sopts)
	if err != nil {
		return nil, fmt.Errorf("embedded broker: %w", err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		if opts.Listen {
			return nil, fmt.Errorf("embedded broker port %d: not ready (is the port in use?)", sopts.Port)
		}
		return nil, errors.New("embedded broker: not ready after 10s")
	}
	nc, err := nats.Connect(ns.ClientURL(), nats.InProcessServer(ns), nats.Name(opts.Name))
	if err != nil {
		ns.Shutdown()
		return nil, fmt.Errorf("connect to embedded broker: %w", err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		ns.Shutdown()
		return nil, fmt.Errorf("jetstream on embedded broker: %w", err)
	}
	return &Broker{Conn: nc, JS: js, embedded: ns}, nil
}

func connectExternal(ctx context.Context, opts BrokerOptions) (*Broker, error) {
	servers, user, pass, err := ParseBrokerURL(opts.URL)
	if err != nil {
		return nil, err
	}
	nopts := []nats.Option{
		nats.Name(opts.Name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(500 * time.Millisecond),
		nats.RetryOnFailedConnect(false),
	}
	if user != "" {
		nopts = append(nopts, nats.UserInfo(user, pass))
	}
	if strings.HasPrefix(servers[0], "tls://") {
		nopts = append(nopts, nats.Secure())
	}
	if dl, ok := ctx.Deadline(); ok {
		nopts = append(nopts, nats.Timeout(time.Until(dl)))
	}
	nc, err := nats.Connect(strings.Join(servers, ","), nopts...)
	if err != nil {
		return nil, fmt.Errorf("connect to broker %s: %w", RedactBrokerURL(opts.URL), err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("jetstream on broker %s: %w", RedactBrokerURL(opts.URL), err)
	}
	return &Broker{Conn: nc, JS: js}, nil
}

// ParseBrokerURL splits a broker_url into server URLs without credentials
// and the credentials, which must be the same on every URL that has them.
func ParseBrokerURL(raw string) (servers []string, user, pass string, err error) {
	for _, part := range strings.Split(raw, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		u, perr := url.Parse(part)
		if perr != nil || u.Host == "" {
			return nil, "", "", fmt.Errorf("broker_url: %q is not a URL like nats://host:4222", RedactBrokerURL(part))
		}
		switch u.Scheme {
		case "nats", "tls", "ws", "wss":
		default:
			return nil, "", "", fmt.Errorf("broker_url: scheme %q is not one of nats, tls, ws, wss", u.Scheme)
		}
		if u.User != nil {
			p, _ := u.User.Password()
			if user != "" && (user != u.User.Username() || pass != p) {
				return nil, "", "", errors.New("broker_url: the cluster URLs carry different credentials")
			}
			user, pass = u.User.Username(), p
			u.User = nil
		}
		servers = append(servers, u.String())
	}
	if len(servers) == 0 {
		return nil, "", "", errors.New("broker_url: no server URL given")
	}
	return servers, user, pass, nil
}

// RedactBrokerURL hides passwords in a broker URL list for logs and errors.
func RedactBrokerURL(raw string) string {
	parts := strings.Split(raw, ",")
	for i, part := range parts {
		u, err := url.Parse(strings.TrimSpace(part))
		if err != nil {
			if strings.Contains(part, "@") {
				parts[i] = "<redacted>"
			}
			continue
		}
		if u.User != nil {
			u.User = url.User("***")
		}
		parts[i] = u.String()
	}
	return strings.Join(parts, ",")
}
