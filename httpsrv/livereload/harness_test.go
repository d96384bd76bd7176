package livereload

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// sseEvent is one parsed block of the stream (up to an empty line).
type sseEvent struct {
	name, id, data, retry string
	comments              []string
}

// sseStream reads a live /sse response the way a browser would.
type sseStream struct {
	resp *http.Response
	r    *bufio.Reader
}

// streamClient bounds a whole stream so a broken server fails the test
// instead of hanging it; no test waits anywhere near this long.
var streamClient = &http.Client{Timeout: 30 * time.Second}

func startHub(t *testing.T, opts Options) (*Hub, *httptest.Server) {
	t.Helper()
	hub := NewHub(opts)
	srv := httptest.NewServer(hub.Handler())
	t.Cleanup(func() {
		hub.Close()
		srv.Close()
	})
	return hub, srv
}

func openStream(t *testing.T, url string, headers ...string) *sseStream {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range headers {
		name, value, _ := strings.Cut(h, ":")
		req.Header.Set(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	resp, err := streamClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d", url, resp.StatusCode)
	}
	return &sseStream{resp: resp, r: bufio.NewReader(resp.Body)}
}

// next reads the next block; an error means the stream ended.
func (s *sseStream) next() (sseEvent, error) {
	var ev sseEvent
	sawField := false
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			return ev, err
		}
		line = strings.TrimSuffix(line, "\n")
		if line == "" {
			if sawField {
				return ev, nil
			}
			continue
		}
		sawField = true
		if c, ok := strings.CutPrefix(line, ":"); ok {
			ev.comments = append(ev.comments, strings.TrimSpace(c))
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "event":
			ev.name = value
		case "id":
			ev.id = value
		case "data":
			if ev.data != "" {
				ev.data += "\n"
			}
			ev.data += value
		case "retry":
			ev.retry = value
		default:
			return ev, fmt.Errorf("unknown SSE field %q", field)
		}
	}
}

// nextEvent skips heartbeats and the retry hint and returns the next named
// event.
func (s *sseStream) nextEvent(t *testing.T) sseEvent {
	t.Helper()
	for {
		ev, err := s.next()
		if err != nil {
			t.Fatalf("stream ended while waiting for an event: %v", err)
		}
		if ev.name != "" {
			return ev
		}
	}
}

// eventually polls cond until it holds; the bound only turns a hang into a
// failure.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never happened: %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
