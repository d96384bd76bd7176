package daemon

import (
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/gittest"
)

// The daemon applies daemon.http.limits and livereload_limits to its
// servers: streams beyond the limits are refused with 503 while /health
// of every server keeps answering.
func TestDaemonServersApplyTheConfiguredLimits(t *testing.T) {
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{})
	url := srv.Add(t, "handbook", gittest.NewRepo(t, map[string]string{"docs/index.md": "# Home"}))
	cfg := daemonConfig(t, url)
	cfg.Daemon.HTTP.Limits = config.DefaultServerLimits()
	cfg.Daemon.HTTP.LiveReloadLimits = config.StreamLimits{MaxStreams: 4, MaxStreamsPerClient: 2}
	d := startDaemon(t, cfg)
	a := d.addrs

	from := func(ip string) *http.Client {
		dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second}
		return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: dialer.DialContext}}
	}
	open := func(ip string) int {
		resp, err := from(ip).Get("http://" + a.LiveReload + "/sse")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp.StatusCode
	}
	for i, want := range []struct {
		ip   string
		code int
	}{{"127.0.0.1", 200}, {"127.0.0.1", 200}, {"127.0.0.1", 503}, {"127.0.0.2", 200}, {"127.0.0.3", 200}, {"127.0.0.4", 503}} {
		if got := open(want.ip); got != want.code {
			t.Fatalf("stream %d from %s: %d, want %d", i, want.ip, got, want.code)
		}
	}
	for _, addr := range []string{a.Docs, a.Webhook, a.Admin, a.LiveReload} {
		if code, _ := get(t, "http://"+addr+"/health"); code != http.StatusOK {
			t.Fatalf("/health of %s while the streams are full: %d", addr, code)
		}
	}
}
