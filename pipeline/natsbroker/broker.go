package natsbroker

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/pipeline/natsbroker/roles"
)

// Options say which broker to use. When URL is set the process
// connects to that broker; otherwise it embeds a NATS server and connects
// to it in-process. The embedded server opens a TCP port only when Listen
// is set, and then requires Username and Password of every client. Build
// them with OptionsFor, which applies the configuration's broker rule.
type Options struct {
	// URL is broker.url: one URL or a comma-separated cluster list, nats://
	// or tls://, credentials allowed as user:password@host.
	URL string
	// Username and Password authenticate to the external broker (instead of
	// credentials in URL), or are what the listening embedded server
	// requires.
	Username, Password string
	// CredentialsFile is a NATS credentials file (JWT and NKey seed) for
	// an external broker.
	CredentialsFile string
	// TLS configures the connection to an external broker.
	TLS TLSFiles
	// StoreDir is the embedded server's JetStream directory.
	StoreDir string
	// Listen is host:port where the embedded server accepts network
	// clients ("" for none; port 0 picks a free port).
	Listen string
	// Name identifies this process's connection in server monitoring.
	Name string
	// Site scopes every subject, stream, bucket and object store this
	// process uses (see Scope); "" scopes nothing.
	Site string
}

// TLSFiles are the files of a TLS connection to an external broker; any
// of them turns TLS on.
type TLSFiles struct {
	CAFile, CertFile, KeyFile string
}

func (t TLSFiles) enabled() bool { return t.CAFile != "" || t.CertFile != "" || t.KeyFile != "" }

// Broker is a live connection to JetStream, with the embedded server it
// started, if any. JS and the core-NATS methods (Subscribe, Request) are
// scoped to the site of the options, so the names in docweave's code
// become the site's names on the broker; the connection itself is not
// exposed, so nothing bypasses the scope.
type Broker struct {
	// JS is the JetStream API, scoped to the site.
	JS       roles.JetStream
	nc       *nats.Conn
	scope    Scope
	embedded *server.Server
	external string // the redacted URL of an external broker
}

// Open connects as the options say.
func Open(ctx context.Context, opts Options) (*Broker, error) {
	var b *Broker
	var err error
	if opts.URL != "" {
		b, err = connectExternal(ctx, opts)
	} else {
		b, err = startEmbedded(opts)
	}
	if err != nil {
		return nil, err
	}
	b.scope = NewScope(opts.Site)
	b.JS = b.scope.JetStream(b.JS)
	return b, nil
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

// Describe names the broker for messages: the external URL (without
// credentials), the embedded server's address, or "the in-process broker".
func (b *Broker) Describe() string {
	switch {
	case b.external != "":
		return b.external
	case b.ClientURL() != "":
		return "the embedded broker at " + b.ClientURL()
	default:
		return "the in-process broker"
	}
}

// Shared reports whether other processes can reach this broker: an
// external one, or the embedded one listening.
func (b *Broker) Shared() bool { return b.external != "" || b.ClientURL() != "" }

// Site is the site the broker's names are scoped to.
func (b *Broker) Site() string { return b.scope.Site() }

// Scope is the broker's scope, for code that must name a scoped subject
// or stream to someone outside (documentation, messages to operators).
func (b *Broker) Scope() Scope { return b.scope }

// Subscribe subscribes to a subject of docweave's code on core NATS: the
// subscription is on the site's subject, and the handler sees the message
// under the subject it asked for.
func (b *Broker) Subscribe(subject string, handler nats.MsgHandler) (*nats.Subscription, error) {
	return b.nc.Subscribe(b.scope.Subject(subject), func(m *nats.Msg) {
		m.Subject = b.scope.Unsubject(m.Subject)
		handler(m)
	})
}

// Request sends a request on the site's subject and waits for the reply.
func (b *Broker) Request(ctx context.Context, subject string, data []byte) (*nats.Msg, error) {
	return b.nc.RequestWithContext(ctx, b.scope.Subject(subject), data)
}

// Flush waits until the server has processed everything sent so far (a
// subscription made just before is then in place).
func (b *Broker) Flush() error { return b.nc.Flush() }

// Close drains the connection and stops the embedded server.
func (b *Broker) Close() {
	if b.nc != nil {
		_ = b.nc.Drain()
		deadline := time.Now().Add(5 * time.Second)
		for !b.nc.IsClosed() && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		b.nc.Close()
	}
	if b.embedded != nil {
		b.embedded.Shutdown()
		b.embedded.WaitForShutdown()
	}
}

// embeddedServerName names the embedded server in monitoring and in the
// errors of clients.
const embeddedServerName = "docweave-embedded"

func startEmbedded(opts Options) (*Broker, error) {
	if opts.StoreDir == "" {
		return nil, errors.New("embedded broker: a store directory is required")
	}
	if err := os.MkdirAll(opts.StoreDir, 0o700); err != nil {
		return nil, fmt.Errorf("embedded broker store %s: %w", opts.StoreDir, err)
	}
	sopts := &server.Options{
		ServerName: embeddedServerName,
		JetStream:  true,
		StoreDir:   opts.StoreDir,
		NoSigs:     true,
		NoLog:      true,
		DontListen: opts.Listen == "",
	}
	if opts.Listen != "" {
		host, port, err := splitListen(opts.Listen)
		if err != nil {
			return nil, err
		}
		if opts.Username == "" || opts.Password == "" {
			return nil, fmt.Errorf("embedded broker %s: a listening broker needs a user name and password", opts.Listen)
		}
		sopts.Host, sopts.Port = host, port
		sopts.Username, sopts.Password = opts.Username, opts.Password
		// nats-server only logs a failed bind and then never gets ready;
		// try the address first, so a taken one fails at once.
		if port > 0 {
			if err := tryListen(opts.Listen); err != nil {
				return nil, fmt.Errorf("embedded broker cannot listen on %s: %w", opts.Listen, err)
			}
		}
	}
	ns, err := server.NewServer(sopts)
	if err != nil {
		return nil, fmt.Errorf("embedded broker: %w", err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		if opts.Listen != "" {
			return nil, fmt.Errorf("embedded broker cannot listen on %s: %w", opts.Listen, listenCause(opts.Listen))
		}
		return nil, errors.New("embedded broker: not ready after 10s")
	}
	nopts := []nats.Option{nats.InProcessServer(ns), nats.Name(opts.Name)}
	if opts.Listen != "" {
		nopts = append(nopts, nats.UserInfo(opts.Username, opts.Password))
	}
	nc, err := nats.Connect(ns.ClientURL(), nopts...)
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
	return &Broker{nc: nc, JS: js, embedded: ns}, nil
}

// splitListen parses host:port; port 0 becomes -1, nats-server's "pick a
// free port".
func splitListen(listen string) (string, int, error) {
	host, portText, err := net.SplitHostPort(listen)
	if err != nil {
		return "", 0, fmt.Errorf("embedded broker address %q: %w", listen, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("embedded broker address %q: port %q is not 0-65535", listen, portText)
	}
	if port == 0 {
		port = -1
	}
	if host == "" {
		host = "0.0.0.0"
	}
	return host, port, nil
}

// listenCause finds out why the embedded server did not come up on its
// address: nats-server only logs it.
func listenCause(listen string) error {
	if err := tryListen(listen); err != nil {
		return err
	}
	return errors.New("not ready after 10s")
}

// tryListen binds the address and lets it go again, returning the cause
// ("address already in use") when it cannot be bound.
func tryListen(listen string) error {
	l, err := net.Listen("tcp", listen)
	if err != nil {
		var op *net.OpError
		if errors.As(err, &op) && op.Err != nil {
			return op.Err
		}
		return err
	}
	return l.Close()
}

func connectExternal(ctx context.Context, opts Options) (*Broker, error) {
	servers, user, pass, err := ParseURL(opts.URL)
	if err != nil {
		return nil, err
	}
	if opts.Username != "" {
		user, pass = opts.Username, opts.Password
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
	if opts.CredentialsFile != "" {
		nopts = append(nopts, nats.UserCredentials(opts.CredentialsFile))
	}
	if strings.HasPrefix(servers[0], "tls://") || opts.TLS.enabled() {
		nopts = append(nopts, nats.Secure())
	}
	if opts.TLS.CAFile != "" {
		nopts = append(nopts, nats.RootCAs(opts.TLS.CAFile))
	}
	if opts.TLS.CertFile != "" {
		nopts = append(nopts, nats.ClientCert(opts.TLS.CertFile, opts.TLS.KeyFile))
	}
	if dl, ok := ctx.Deadline(); ok {
		nopts = append(nopts, nats.Timeout(time.Until(dl)))
	}
	shown := RedactURL(opts.URL)
	nc, err := nats.Connect(strings.Join(servers, ","), nopts...)
	if err != nil {
		return nil, fmt.Errorf("connect to broker %s: %w", shown, err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("jetstream on broker %s: %w", shown, err)
	}
	return &Broker{nc: nc, JS: js, external: shown}, nil
}

// ParseURL splits a broker_url into server URLs without credentials
// and the credentials, which must be the same on every URL that has them.
func ParseURL(raw string) (servers []string, user, pass string, err error) {
	for _, part := range strings.Split(raw, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		u, perr := url.Parse(part)
		if perr != nil || u.Host == "" {
			return nil, "", "", fmt.Errorf("broker_url: %q is not a URL like nats://host:4222", RedactURL(part))
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

// RedactURL hides passwords in a broker URL list for logs and errors.
func RedactURL(raw string) string {
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
