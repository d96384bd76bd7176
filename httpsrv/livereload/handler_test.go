package livereload

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

func request(t *testing.T, method, url string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

func TestHealth(t *testing.T) {
	_, srv := startHub(t, Options{Log: zerolog.Nop()})
	resp, body := request(t, http.MethodGet, srv.URL+"/health")
	if resp.StatusCode != http.StatusOK || strings.TrimSpace(body) != `{"status":"ok"}` {
		t.Fatalf("GET /health: %d %q", resp.StatusCode, body)
	}
}

func TestUnknownPathIs404(t *testing.T) {
	_, srv := startHub(t, Options{Log: zerolog.Nop()})
	resp, body := request(t, http.MethodGet, srv.URL+"/events")
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(body, `"code":"not_found"`) ||
		resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET /events: %d %s %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}

func TestWrongMethodsAre405(t *testing.T) {
	_, srv := startHub(t, Options{Log: zerolog.Nop()})
	cases := map[string]string{"/sse": "GET, OPTIONS", "/health": "GET, HEAD"}
	for path, allow := range cases {
		for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete} {
			resp, body := request(t, m, srv.URL+path)
			if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != allow ||
				!strings.Contains(body, `"code":"method_not_allowed"`) {
				t.Fatalf("%s %s: %d Allow %q %q", m, path, resp.StatusCode, resp.Header.Get("Allow"), body)
			}
		}
	}
}

func TestPreflightAllowsAnyOrigin(t *testing.T) {
	_, srv := startHub(t, Options{Log: zerolog.Nop()})
	resp, _ := request(t, http.MethodOptions, srv.URL+"/sse")
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(resp.Header.Get("Access-Control-Allow-Headers"), "Last-Event-ID") {
		t.Fatalf("OPTIONS /sse: %d %v", resp.StatusCode, resp.Header)
	}
}
