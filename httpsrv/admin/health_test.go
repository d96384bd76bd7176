package admin

import (
	"net/http"
	"os"
	"testing"
)

func TestHealthIsAlwaysOK(t *testing.T) {
	h := newHarness(t, "secret-token")
	resp := h.doRaw(t, http.MethodGet, "/health", "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status = %d, want 200", resp.StatusCode)
	}
	if got := decodeJSON[map[string]string](t, resp); got["status"] != "ok" {
		t.Fatalf("body = %v, want status ok", got)
	}
	if resp := h.doRaw(t, http.MethodHead, "/health", ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("HEAD /health = %d, want 200", resp.StatusCode)
	}
}

func TestReadyFollowsPublicDirectory(t *testing.T) {
	h := newHarness(t, "secret-token") // /ready stays open with a token set

	wantError(t, h.doRaw(t, http.MethodGet, "/ready", ""), http.StatusServiceUnavailable, codeNotReady)

	if err := os.MkdirAll(h.publicDir, 0o755); err != nil {
		t.Fatal(err)
	}
	resp := h.doRaw(t, http.MethodGet, "/ready", "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("after render: status = %d, want 200", resp.StatusCode)
	}
	if got := decodeJSON[map[string]string](t, resp); got["status"] != "ready" {
		t.Fatalf("body = %v, want status ready", got)
	}

	if err := os.RemoveAll(h.publicDir); err != nil {
		t.Fatal(err)
	}
	wantError(t, h.doRaw(t, http.MethodGet, "/ready", ""), http.StatusServiceUnavailable, codeNotReady)
}

func TestReadyRefusesAFileInPlaceOfTheDirectory(t *testing.T) {
	h := newHarness(t, "")
	if err := os.WriteFile(h.publicDir, []byte("not a dir"), 0o644); err != nil {
		t.Fatal(err)
	}
	wantError(t, h.doRaw(t, http.MethodGet, "/ready", ""), http.StatusServiceUnavailable, codeNotReady)
}

func TestHealthAndReadyRefuseWrites(t *testing.T) {
	h := newHarness(t, "")
	for _, path := range []string{"/health", "/ready", "/metrics"} {
		resp := h.doRaw(t, http.MethodPost, path, "")
		wantError(t, resp, http.StatusMethodNotAllowed, codeMethodNotAllowed)
		if got := resp.Header.Get("Allow"); got != "GET, HEAD" {
			t.Errorf("POST %s: Allow = %q, want \"GET, HEAD\"", path, got)
		}
	}
}
