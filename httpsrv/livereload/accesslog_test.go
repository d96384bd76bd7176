package livereload

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"
)

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestAccessLogHasStableFields(t *testing.T) {
	var logs syncBuffer
	hub := NewHub(Options{Log: zerolog.New(&logs).Level(zerolog.DebugLevel)})
	srv := httptest.NewServer(hub.Handler())
	s := openStream(t, srv.URL+"/sse")
	s.nextEvent(t)
	hub.Close()
	srv.Close() // waits for the stream's handler, so its log line is written

	var entry map[string]any
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if e["message"] == "request" {
			entry = e
		}
	}
	if entry == nil {
		t.Fatalf("no access log line in %s", logs.String())
	}
	if entry["server"] != ServerName || entry["method"] != http.MethodGet || entry["path"] != "/sse" ||
		entry["status"] != float64(http.StatusOK) {
		t.Fatalf("access log entry %v", entry)
	}
	if _, ok := entry["duration_ms"].(float64); !ok {
		t.Fatalf("access log entry without numeric duration_ms: %v", entry)
	}
}
