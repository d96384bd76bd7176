package docs

import (
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestPlaceholderHeadersAndHead(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "public"))

	r := get(t, srv.URL+"/docs/")
	if r.header.Get("Retry-After") != strconv.Itoa(PlaceholderRetryAfter) || r.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("placeholder headers: Retry-After %q Cache-Control %q", r.header.Get("Retry-After"), r.header.Get("Cache-Control"))
	}
	if !strings.Contains(r.body, `http-equiv="refresh"`) || len(r.body) > 2048 {
		t.Fatalf("placeholder body should be short and refresh itself: %q", r.body)
	}
	h := do(t, http.MethodHead, srv.URL+"/")
	if h.status != http.StatusServiceUnavailable || h.body != "" {
		t.Fatalf("HEAD placeholder: %d %q, want 503 without body", h.status, h.body)
	}
}
