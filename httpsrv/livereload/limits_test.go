package livereload

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/httpsrv"
)

// clientFrom is an HTTP client whose connections come from a given
// loopback address, so tests can be several clients.
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second}
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: d.DialContext}}
}

// getFrom opens /sse from ip and returns the response (the body is closed
// at the end of the test).
func getFrom(t *testing.T, ip, url string) *http.Response {
	t.Helper()
	resp, err := clientFrom(ip).Get(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func requireRefused(t *testing.T, resp *http.Response, limit string) {
	t.Helper()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "30" {
		t.Fatalf("status %d Retry-After %q, want 503 and 30", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	var body httpsrv.ErrorBody
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if body.Code != CodeTooManyStreams || !strings.Contains(body.Message, limit) {
		t.Fatalf("error %+v, want %s naming %s", body, CodeTooManyStreams, limit)
	}
}

func TestStreamLimits(t *testing.T) {
	hub, srv := startHub(t, Options{MaxStreams: 3, MaxStreamsPerClient: 2, Log: zerolog.Nop()})
	url := srv.URL + "/sse"
	a1, a2 := getFrom(t, "127.0.0.1", url), getFrom(t, "127.0.0.1", url)
	if a1.StatusCode != http.StatusOK || a2.StatusCode != http.StatusOK {
		t.Fatalf("streams within the limits: %d %d", a1.StatusCode, a2.StatusCode)
	}
	requireRefused(t, getFrom(t, "127.0.0.1", url), "max_streams_per_client")
	if b := getFrom(t, "127.0.0.2", url); b.StatusCode != http.StatusOK {
		t.Fatalf("another client's stream: %d", b.StatusCode)
	}
	requireRefused(t, getFrom(t, "127.0.0.3", url), "max_streams")
	if code, _ := getPlain(t, srv.URL+"/health"); code != http.StatusOK {
		t.Fatalf("/health while the streams are full: %d", code)
	}
	// A stream that ends gives its place back.
	a1.Body.Close()
	eventually(t, "the closed stream to be forgotten", func() bool { return hub.Clients() == 2 })
	if c := getFrom(t, "127.0.0.3", url); c.StatusCode != http.StatusOK {
		t.Fatalf("after a stream ended: %d", c.StatusCode)
	}
}

func getPlain(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := streamClient.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	return resp.StatusCode, ""
}

// Every daemon server has a read timeout now, live reload included: a
// stream lifts it once its request is read, so it outlives the timeout.
func TestStreamOutlivesTheServersReadTimeout(t *testing.T) {
	hub := NewHub(Options{Heartbeat: 100 * time.Millisecond, Log: zerolog.Nop()})
	lim := config.DefaultServerLimits()
	lim.ReadHeaderTimeout, lim.ReadTimeout = time.Second, time.Second
	srv := httptest.NewUnstartedServer(hub.Handler())
	srv.Config = httpsrv.NewServer(hub.Handler(), lim)
	srv.Start()
	t.Cleanup(func() { hub.Close(); srv.Close() })

	s := openStream(t, srv.URL+"/sse")
	start := time.Now()
	beats := 0
	for time.Since(start) < 3*lim.ReadTimeout {
		ev, err := s.next()
		if err != nil {
			t.Fatalf("the stream ended after %s (%d heartbeats): %v", time.Since(start), beats, err)
		}
		if len(ev.comments) > 0 {
			beats++
		}
	}
	hub.Publish(Event{Name: EventReload, Data: Reload{BuildID: "b2"}})
	if ev := s.nextEvent(t); ev.name != EventHello && ev.name != EventReload {
		t.Fatalf("event %q after the read timeout", ev.name)
	}
}
