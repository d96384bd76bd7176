package docs

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"
)

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
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
	public := filepath.Join(t.TempDir(), "public")
	writeSite(t, public, testSite)
	var logs syncBuffer
	srv := httptest.NewServer(New(Options{PublicDir: public, Log: zerolog.New(&logs).Level(zerolog.DebugLevel)}))
	defer srv.Close()

	get(t, srv.URL+"/docs/missing/")
	srv.Close() // wait for the handler, and so the log line, to finish

	line := strings.TrimSpace(logs.String())
	var entry map[string]any
	if err := json.Unmarshal([]byte(line), &entry); err != nil {
		t.Fatalf("log line %q: %v", line, err)
	}
	if entry["server"] != "docs" || entry["method"] != http.MethodGet || entry["path"] != "/docs/missing/" ||
		entry["status"] != float64(http.StatusNotFound) {
		t.Fatalf("access log entry %v", entry)
	}
	if _, ok := entry["duration_ms"].(float64); !ok {
		t.Fatalf("access log entry without numeric duration_ms: %v", entry)
	}
}

func TestRefusedPathIsLoggedAsWarning(t *testing.T) {
	public := siteWithSecretNextToIt(t)
	if err := symlink("../secret.txt", filepath.Join(public, "escape.txt")); err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	srv := httptest.NewServer(New(Options{PublicDir: public, Log: zerolog.New(&logs).Level(zerolog.WarnLevel)}))
	get(t, srv.URL+"/escape.txt")
	srv.Close()
	if out := logs.String(); !strings.Contains(out, `"level":"warn"`) || !strings.Contains(out, "/escape.txt") ||
		strings.Contains(out, secret) {
		t.Fatalf("warning log %q: want a warn line naming the path and not the content", out)
	}
}
