package docs

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadyFollowsPublicDirectory(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	if Ready(public) {
		t.Fatal("Ready before the directory exists")
	}
	if err := os.WriteFile(public, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if Ready(public) {
		t.Fatal("Ready when public is a file, not a directory")
	}
	os.Remove(public)
	if err := os.Mkdir(public, 0o755); err != nil {
		t.Fatal(err)
	}
	if !Ready(public) {
		t.Fatal("not Ready after the directory appeared")
	}
}

func TestReadyEndpointGoesBackTo503WhenDirectoryDisappears(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	srv := startServer(t, public)

	want := func(status int) {
		t.Helper()
		r := get(t, srv.URL+"/ready")
		if r.status != status {
			t.Fatalf("GET /ready: %d %q, want %d", r.status, r.body, status)
		}
		if r.header.Get("Content-Type") != "application/json" {
			t.Errorf("GET /ready Content-Type %q, want application/json", r.header.Get("Content-Type"))
		}
		if status == http.StatusServiceUnavailable && !strings.Contains(r.body, `"code":"not_ready"`) {
			t.Errorf("GET /ready 503 body %q, want code not_ready", r.body)
		}
	}
	want(http.StatusServiceUnavailable)
	writeSite(t, public, testSite)
	want(http.StatusOK)
	if err := os.RemoveAll(public); err != nil {
		t.Fatal(err)
	}
	want(http.StatusServiceUnavailable)
	if r := get(t, srv.URL+"/"); r.status != http.StatusServiceUnavailable {
		t.Fatalf("GET / after the site was removed: %d, want the 503 placeholder", r.status)
	}
}

func TestHealthIsAlways200(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	srv := startServer(t, public)
	for i := 0; i < 2; i++ {
		r := get(t, srv.URL+"/health")
		if r.status != http.StatusOK || strings.TrimSpace(r.body) != `{"status":"ok"}` {
			t.Fatalf("GET /health (site present: %v): %d %q", i == 1, r.status, r.body)
		}
		writeSite(t, public, testSite)
	}
}
