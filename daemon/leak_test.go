package daemon

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/internal/natstest"
)

// echoingForge is a Git server that refuses every request with 403 and
// echoes the request's Authorization header in its error text — in the
// clear, percent-encoded and re-encoded — as some forges and proxies do.
// go-git puts a 403 body into its error message.
func echoingForge(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		user, pass, _ := r.BasicAuth()
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprintf(w, "access denied for Authorization: %s (user %s, password %s, raw %s)",
			auth, user, url.QueryEscape(pass), base64.StdEncoding.EncodeToString([]byte(pass)))
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return "http://" + l.Addr().String() + "/org/private.git"
}

// brokerTap records every message published on a broker (streams, KV
// updates and requests included).
type brokerTap struct {
	mu   sync.Mutex
	data bytes.Buffer
	n    int
}

func tapBroker(t *testing.T, url string) *brokerTap {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	tap := &brokerTap{}
	if _, err := nc.Subscribe(">", func(m *nats.Msg) {
		tap.mu.Lock()
		defer tap.mu.Unlock()
		tap.n++
		tap.data.WriteString(m.Subject)
		tap.data.WriteByte(' ')
		tap.data.Write(m.Data)
		for k, vs := range m.Header {
			tap.data.WriteString(k + ": " + strings.Join(vs, ",") + "\n")
		}
		tap.data.WriteByte('\n')
	}); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	return tap
}

func (b *brokerTap) text() (string, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.data.String(), b.n
}

// syncBuffer is a log writer safe for the daemon's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// Issue 16: a credential echoed by a server in base64 (Authorization: Basic
// …) reached the logs, the report, /status, /api/builds/{id} and broker
// messages. Every one of those paths is read here, for every spelling of
// the secret.
func TestEchoedCredentialsReachNoOutput(t *testing.T) {
	const user, pass = "reader", "Sup3r-s3cret/pa$$+word"
	cluster := natstest.StartCluster(t, 1)
	tap := tapBroker(t, cluster.ClientURL(0))

	good := gittest.NewHTTPServer(t, gittest.HTTPOptions{})
	goodURL := good.Add(t, "handbook", gittest.NewRepo(t, map[string]string{"docs/index.md": "# Home"}))
	cfg := daemonConfig(t, goodURL)
	cfg.Repositories = append(cfg.Repositories, config.Repository{Name: "private", URL: echoingForge(t),
		Auth: config.Auth{Type: config.AuthBasic, Username: user, Password: pass}})
	cfg.Broker.URL, cfg.Daemon.LinkVerification.BrokerURL = cluster.ClientURL(0), cluster.ClientURL(0)
	cfg.Build.MaxRetries = 0

	logs := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan Addresses, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, cfg, Options{Log: zerolog.New(logs).Level(zerolog.DebugLevel), Ready: func(a Addresses) { ready <- a }})
	}()
	var stopOnce sync.Once
	stop := func() { stopOnce.Do(func() { cancel(); <-done }) }
	t.Cleanup(stop)
	var a Addresses
	select {
	case a = <-ready:
	case err := <-done:
		t.Fatalf("daemon did not start: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("daemon did not start")
	}
	id := trigger(t, a.Admin)
	waitBuild(t, a.Admin, id)

	_, status := get(t, "http://"+a.Admin+"/status")
	_, build := get(t, "http://"+a.Admin+"/api/builds/"+id)
	_, builds := get(t, "http://"+a.Admin+"/api/builds")
	reportJSON, err := os.ReadFile(filepath.Join(cfg.Output.Directory, "build-report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(build, "CLONE_AUTH") || !strings.Contains(string(reportJSON), "access denied") {
		t.Fatalf("the refused clone is not reported as such:\n%s", build)
	}
	stop()
	messages, n := tap.text()
	if n == 0 || !strings.Contains(messages, "CLONE_AUTH") {
		t.Fatalf("the broker tap saw %d messages, none with the failure", n)
	}

	basic := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
	forms := map[string]string{
		"secret": pass, "basic credentials": basic, "query-escaped": url.QueryEscape(pass),
		"base64": base64.StdEncoding.EncodeToString([]byte(pass)), "core": "s3cret",
	}
	outputs := map[string]string{
		"logs": logs.String(), "build-report.json": string(reportJSON), "/status": status,
		"/api/builds/{id}": build, "/api/builds": builds, "broker messages": messages,
	}
	for where, text := range outputs {
		for form, secret := range forms {
			if strings.Contains(text, secret) {
				t.Errorf("%s holds the password (%s form)", where, form)
			}
		}
	}
}
