package livereload

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

func TestHelloOnConnect(t *testing.T) {
	_, srv := startHub(t, Options{Log: zerolog.Nop()})
	s := openStream(t, srv.URL+"/sse")

	if ct := s.resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q, want text/event-stream", ct)
	}
	if o := s.resp.Header.Get("Access-Control-Allow-Origin"); o != "*" {
		t.Fatalf("Access-Control-Allow-Origin %q, want *", o)
	}
	first, err := s.next()
	if err != nil || first.retry != "2000" {
		t.Fatalf("first block %+v (%v), want retry: 2000", first, err)
	}
	hello := s.nextEvent(t)
	if hello.name != EventHello || hello.id != "0" || hello.data != `{"build_id":""}` {
		t.Fatalf("hello = %+v, want event hello, id 0, data {\"build_id\":\"\"}", hello)
	}
}

func TestPublishedReloadReachesEveryClient(t *testing.T) {
	hub, srv := startHub(t, Options{Log: zerolog.Nop()})
	a := openStream(t, srv.URL+"/sse")
	b := openStream(t, srv.URL+"/sse")
	a.nextEvent(t)
	b.nextEvent(t)
	if n := hub.Clients(); n != 2 {
		t.Fatalf("Clients() = %d, want 2", n)
	}

	want := Reload{BuildID: "b-42", Site: "sha256:abc", Pages: 17, Time: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	hub.Publish(Event{Name: EventReload, Data: want})
	for _, s := range []*sseStream{a, b} {
		ev := s.nextEvent(t)
		if ev.name != EventReload || ev.id != "1" {
			t.Fatalf("event %+v, want reload with id 1", ev)
		}
		var got Reload
		if err := json.Unmarshal([]byte(ev.data), &got); err != nil {
			t.Fatalf("reload data %q: %v", ev.data, err)
		}
		if got != want {
			t.Fatalf("reload data = %+v, want %+v", got, want)
		}
		for _, key := range []string{`"build_id":"b-42"`, `"site":"sha256:abc"`, `"pages":17`, `"time":"2026-03-01T12:00:00Z"`} {
			if !strings.Contains(ev.data, key) {
				t.Errorf("reload data %s lacks %s", ev.data, key)
			}
		}
	}

	// A client connecting afterwards learns the build in its hello.
	c := openStream(t, srv.URL+"/sse")
	if hello := c.nextEvent(t); hello.data != `{"build_id":"b-42"}` || hello.id != "1" {
		t.Fatalf("hello after a reload = %+v, want build b-42 and id 1", hello)
	}
}

func TestHeartbeatsArrive(t *testing.T) {
	_, srv := startHub(t, Options{Heartbeat: 5 * time.Millisecond, Log: zerolog.Nop()})
	s := openStream(t, srv.URL+"/sse")
	for i := 0; i < 1000; i++ {
		ev, err := s.next()
		if err != nil {
			t.Fatalf("stream ended before a heartbeat: %v", err)
		}
		if len(ev.comments) == 1 && ev.comments[0] == "ping" && ev.name == "" {
			return
		}
	}
	t.Fatal("no heartbeat comment among the first 1000 blocks")
}

func TestStalledClientDoesNotBlockPublish(t *testing.T) {
	hub, srv := startHub(t, Options{ClientBuffer: 4, Log: zerolog.Nop()})

	// The stalled client sends its request and never reads a byte.
	stalled, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer stalled.Close()
	if _, err := io.WriteString(stalled, "GET /sse HTTP/1.1\r\nHost: lr.test\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	eventually(t, "stalled client registered", func() bool { return hub.Clients() == 1 })

	healthy := openStream(t, srv.URL+"/sse")
	healthy.nextEvent(t) // hello
	if hub.Clients() != 2 {
		t.Fatalf("Clients() = %d, want 2", hub.Clients())
	}

	// Large events fill the stalled connection's socket buffers; after that
	// its queue fills and Publish must drop it rather than wait. The healthy
	// client reads each event before the next is published.
	big := strings.Repeat("x", 256<<10)
	published := 0
	for hub.Clients() == 2 {
		if published == 2000 {
			t.Fatalf("stalled client still connected after %d large events", published)
		}
		published++
		returned := make(chan struct{})
		go func() {
			hub.Publish(Event{Name: "filler", Data: map[string]any{"n": published, "pad": big}})
			close(returned)
		}()
		select {
		case <-returned:
		case <-time.After(20 * time.Second): // a hang, not a slow call
			t.Fatalf("Publish blocked on a stalled client (event %d)", published)
		}
		ev := healthy.nextEvent(t)
		var got struct {
			N int `json:"n"`
		}
		if err := json.Unmarshal([]byte(ev.data), &got); err != nil || got.N != published {
			t.Fatalf("healthy client got n=%d (%v), want %d", got.N, err, published)
		}
	}
	if hub.Clients() != 1 {
		t.Fatalf("Clients() = %d after the drop, want the healthy one", hub.Clients())
	}

	// The healthy client keeps receiving.
	hub.Publish(Event{Name: EventReload, Data: Reload{BuildID: "after-drop"}})
	if ev := healthy.nextEvent(t); ev.name != EventReload || !strings.Contains(ev.data, "after-drop") {
		t.Fatalf("healthy client after the drop got %+v", ev)
	}
}

func TestCloseEndsStreamsAndRefusesNewOnes(t *testing.T) {
	hub, srv := startHub(t, Options{Log: zerolog.Nop()})
	streams := []*sseStream{openStream(t, srv.URL+"/sse"), openStream(t, srv.URL+"/sse")}
	for _, s := range streams {
		s.nextEvent(t)
	}
	hub.Close()
	hub.Close() // idempotent
	for i, s := range streams {
		for {
			_, err := s.next()
			if err == nil {
				continue
			}
			if !errors.Is(err, io.EOF) {
				t.Fatalf("stream %d ended with %v, want a clean end (EOF)", i, err)
			}
			break
		}
	}
	if n := hub.Clients(); n != 0 {
		t.Fatalf("Clients() after Close = %d, want 0", n)
	}
	hub.Publish(Event{Name: EventReload, Data: Reload{BuildID: "late"}}) // must not panic

	resp, err := http.Get(srv.URL + "/sse")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), `"code":"shutting_down"`) {
		t.Fatalf("GET /sse after Close: %d %s, want 503 shutting_down", resp.StatusCode, body)
	}
}

func TestClientLeavingIsForgotten(t *testing.T) {
	hub, srv := startHub(t, Options{Log: zerolog.Nop()})
	s := openStream(t, srv.URL+"/sse")
	s.nextEvent(t)
	s.resp.Body.Close()
	eventually(t, "client forgotten after it left", func() bool { return hub.Clients() == 0 })
}

func TestLastEventIDReplaysAMissedReload(t *testing.T) {
	hub, srv := startHub(t, Options{Log: zerolog.Nop()})
	hub.Publish(Event{Name: EventReload, Data: Reload{BuildID: "b1"}}) // id 1
	hub.Publish(Event{Name: "note", Data: "not a reload"})             // id 2

	// Missed it (saw only id 0), or the id comes from before a restart.
	for _, last := range []string{"0", "99", "garbage"} {
		s := openStream(t, srv.URL+"/sse", "Last-Event-ID: "+last)
		if hello := s.nextEvent(t); hello.name != EventHello || hello.id != "2" {
			t.Fatalf("Last-Event-ID %s: hello %+v, want id 2", last, hello)
		}
		replay := s.nextEvent(t)
		if replay.name != EventReload || replay.id != "1" || !strings.Contains(replay.data, `"build_id":"b1"`) {
			t.Fatalf("Last-Event-ID %s: after hello got %+v, want the replayed reload b1 (id 1)", last, replay)
		}
	}

	// Saw it (id 1 or later), or a fresh page load without the header: no
	// replay; the next event is the next one published.
	for _, header := range []string{"Last-Event-ID: 1", "Last-Event-ID: 2", ""} {
		var s *sseStream
		if header == "" {
			s = openStream(t, srv.URL+"/sse")
		} else {
			s = openStream(t, srv.URL+"/sse", header)
		}
		s.nextEvent(t) // hello
		hub.Publish(Event{Name: "marker", Data: header})
		if ev := s.nextEvent(t); ev.name != "marker" {
			t.Fatalf("%q: after hello got %+v, want the marker (no replay)", header, ev)
		}
	}
}

func TestInvalidEventsAreNotSent(t *testing.T) {
	hub, srv := startHub(t, Options{Log: zerolog.Nop()})
	s := openStream(t, srv.URL+"/sse")
	s.nextEvent(t)
	hub.Publish(Event{Name: "two\nlines", Data: 1})
	hub.Publish(Event{Name: "", Data: 1})
	hub.Publish(Event{Name: "bad-data", Data: make(chan int)})
	hub.Publish(Event{Name: "good", Data: 1})
	if ev := s.nextEvent(t); ev.name != "good" || ev.id != "1" {
		t.Fatalf("next event %+v, want good with id 1 (invalid events skipped, ids not used)", ev)
	}
}

func TestNewHubDefaults(t *testing.T) {
	h := NewHub(Options{})
	if h.heartbeat != DefaultHeartbeat || h.writeTimeout != DefaultWriteTimeout || h.buffer != DefaultClientBuffer {
		t.Fatalf("defaults: heartbeat %v, write timeout %v, buffer %d", h.heartbeat, h.writeTimeout, h.buffer)
	}
}

func TestMissedLastReload(t *testing.T) {
	h := NewHub(Options{Log: zerolog.Nop()})
	if h.missedLastReload("0") {
		t.Fatal("replay with no reload published")
	}
	h.Publish(Event{Name: "x", Data: 1})                            // 1
	h.Publish(Event{Name: EventReload, Data: Reload{BuildID: "b"}}) // 2
	h.Publish(Event{Name: "x", Data: 1})                            // 3
	cases := map[string]bool{"": false, "0": true, "1": true, "2": false, "3": false, "4": true, "-1": true, "abc": true}
	for id, want := range cases {
		h.mu.Lock()
		got := h.missedLastReload(id)
		h.mu.Unlock()
		if got != want {
			t.Errorf("missedLastReload(%q) = %v, want %v", id, got, want)
		}
	}
}

func TestStreamsOutliveServerTimeouts(t *testing.T) {
	hub := NewHub(Options{Heartbeat: 10 * time.Millisecond, Log: zerolog.Nop()})
	srv := httptest.NewUnstartedServer(hub.Handler())
	srv.Config.ReadTimeout = 50 * time.Millisecond
	srv.Config.WriteTimeout = 50 * time.Millisecond
	srv.Start()
	t.Cleanup(func() { hub.Close(); srv.Close() })

	s := openStream(t, srv.URL+"/sse")
	s.nextEvent(t) // hello
	// Thirty heartbeats cannot arrive in less than 290 ms, well past both
	// server timeouts; the stream must still be open.
	for beats := 0; beats < 30; {
		ev, err := s.next()
		if err != nil {
			t.Fatalf("stream ended after %d heartbeats: %v", beats, err)
		}
		if len(ev.comments) > 0 {
			beats++
		}
	}
	hub.Publish(Event{Name: EventReload, Data: Reload{BuildID: "late"}})
	if ev := s.nextEvent(t); ev.name != EventReload {
		t.Fatalf("after the timeouts got %+v, want the reload", ev)
	}
}
