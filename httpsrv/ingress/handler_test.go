package ingress

import (
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"
)

func TestAuthentication(t *testing.T) {
	s := startServer(t, "")
	cases := []struct {
		name      string
		auth      []string
		status    int
		code      ErrorCode
		challenge string
	}{
		{"missing", nil, 401, CodeMissingCredentials, `Bearer realm="docweave-ingress"`},
		{"empty", []string{""}, 401, CodeMissingCredentials, `Bearer realm="docweave-ingress"`},
		{"other scheme", []string{"Basic " + keyA}, 401, CodeMalformedCredentials, `error="invalid_request"`},
		{"scheme only", []string{"Bearer"}, 401, CodeMalformedCredentials, `error="invalid_request"`},
		{"token with a space", []string{"Bearer " + keyA + " extra"}, 401, CodeMalformedCredentials, `error="invalid_request"`},
		{"token with bad characters", []string{"Bearer k€y"}, 401, CodeMalformedCredentials, `error="invalid_request"`},
		{"two headers", []string{"Bearer " + keyA, "Bearer " + keyB}, 401, CodeMalformedCredentials, `error="invalid_request"`},
		{"wrong key", []string{"Bearer wrong-key"}, 401, CodeInvalidCredentials, `error="invalid_token"`},
		{"prefix of a key", []string{"Bearer " + keyA[:10]}, 401, CodeInvalidCredentials, `error="invalid_token"`},
		{"key with extra suffix", []string{"Bearer " + keyA + "x"}, 401, CodeInvalidCredentials, `error="invalid_token"`},
		{"first key", []string{"Bearer " + keyA}, 200, "", ""},
		{"second key (rotation)", []string{"Bearer " + keyB}, 200, "", ""},
		{"scheme in lower case, two spaces", []string{"bearer  " + keyA}, 200, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var h map[string][]string
			if tc.auth != nil {
				h = map[string][]string{"Authorization": tc.auth}
			}
			resp, body := s.get(t, PathIngresses, h)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if tc.status != 401 {
				return
			}
			assertError(t, body, tc.code)
			if got := resp.Header.Get("WWW-Authenticate"); !strings.Contains(got, tc.challenge) || !strings.HasPrefix(got, "Bearer ") {
				t.Fatalf("WWW-Authenticate %q, want it to contain %q", got, tc.challenge)
			}
			if resp.Header.Get("ETag") != "" {
				t.Fatal("a 401 must not reveal the ETag")
			}
			if strings.Contains(string(body), keyA) || strings.Contains(string(body), "wrong-key") {
				t.Fatalf("error body echoes the credentials: %s", body)
			}
		})
	}

	t.Run("401 comes before 304", func(t *testing.T) {
		resp, _ := s.get(t, PathIngresses, map[string][]string{"If-None-Match": {"*"}})
		if resp.StatusCode != 401 {
			t.Fatalf("status %d, want 401", resp.StatusCode)
		}
	})
	t.Run("a removed key stops working at once", func(t *testing.T) {
		if err := s.keys.Replace(KeysFromList("test", []string{keyB})); err != nil {
			t.Fatal(err)
		}
		if resp, _ := s.get(t, PathIngresses, bearer(keyA)); resp.StatusCode != 401 {
			t.Fatalf("old key: %d", resp.StatusCode)
		}
		if resp, _ := s.get(t, PathIngresses, bearer(keyB)); resp.StatusCode != 200 {
			t.Fatalf("new key: %d", resp.StatusCode)
		}
	})
}

func TestInternalErrorIs500WithErrorBody(t *testing.T) {
	s := startServer(t, "")
	s.listing.panic.Store(true)
	resp, body := s.get(t, PathIngresses, bearer(keyA))
	if resp.StatusCode != http.StatusInternalServerError {
		t.Fatalf("status %d", resp.StatusCode)
	}
	assertError(t, body, CodeInternal)
	if strings.Contains(string(body), "exploded") {
		t.Fatalf("internal detail leaked to the client: %s", body)
	}
	s.listing.panic.Store(false)
	if resp, _ := s.get(t, PathIngresses, bearer(keyA)); resp.StatusCode != 200 {
		t.Fatalf("the server must keep serving after a failure: %d", resp.StatusCode)
	}
}

func TestOpenAPIEndpointNeedsNoAuthAndRevalidates(t *testing.T) {
	s := startServer(t, "")
	resp, body := s.get(t, PathOpenAPI, nil)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"openapi": "3.1.0"`) {
		t.Fatalf("status %d", resp.StatusCode)
	}
	resp, _ = s.get(t, PathOpenAPI, map[string][]string{"If-None-Match": {resp.Header.Get("ETag")}})
	if resp.StatusCode != 304 {
		t.Fatalf("revalidation: %d", resp.StatusCode)
	}
}

func TestProbesAndMetrics(t *testing.T) {
	s := startServer(t, "")
	for _, path := range []string{"/health", "/ready"} {
		if resp, _ := s.do(t, "GET", path, nil); resp.StatusCode != 200 {
			t.Fatalf("%s: %d", path, resp.StatusCode)
		}
	}
	s.listing.snap.Store(nil)
	if resp, body := s.do(t, "GET", "/ready", nil); resp.StatusCode != 503 || !strings.Contains(string(body), "not ready") {
		t.Fatalf("/ready before sync: %d %s", resp.StatusCode, body)
	}
	if resp, _ := s.do(t, "GET", "/health", nil); resp.StatusCode != 200 {
		t.Fatalf("/health must not depend on the source: %d", resp.StatusCode)
	}

	s.get(t, PathIngresses, nil)              // 401 missing
	s.get(t, PathIngresses, bearer("nope-1")) // 401 invalid
	resp, body := s.do(t, "GET", "/metrics", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("/metrics: %d", resp.StatusCode)
	}
	for _, want := range []string{
		`docweave_ingress_http_requests_total{code="401",route="list"} 2`,
		`docweave_ingress_auth_failures_total{reason="missing"} 1`,
		`docweave_ingress_auth_failures_total{reason="invalid"} 1`,
		`docweave_ingress_auth_failures_total{reason="malformed"} 0`,
		`docweave_ingress_http_request_duration_seconds_count{route="list"} 2`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

func TestUnknownPathsAndMethods(t *testing.T) {
	s := startServer(t, "")
	resp, body := s.do(t, "GET", "/v2/ingresses", nil)
	if resp.StatusCode != 404 {
		t.Fatalf("unknown path: %d", resp.StatusCode)
	}
	assertError(t, body, CodeNotFound)
	for _, path := range []string{PathIngresses, PathOpenAPI, "/ready"} {
		resp, body := s.do(t, "POST", path, bearer(keyA))
		if resp.StatusCode != 405 || resp.Header.Get("Allow") != "GET, HEAD" {
			t.Fatalf("POST %s: %d, Allow %q", path, resp.StatusCode, resp.Header.Get("Allow"))
		}
		assertError(t, body, CodeMethodNotAllowed)
	}
}

func TestNewHandlerRejectsBadOptions(t *testing.T) {
	keys, _ := NewKeySet(KeysFromList("k", []string{keyA}))
	good := Options{Listing: &fakeListing{}, Keys: keys, Registry: prometheus.NewRegistry(), Logger: zerolog.Nop()}
	cases := map[string]func(o *Options){
		"no listing":          func(o *Options) { o.Listing = nil },
		"no keys":             func(o *Options) { o.Keys = nil },
		"no registry":         func(o *Options) { o.Registry = nil },
		"header injection":    func(o *Options) { o.CacheControl = "no-store\r\nX-Evil: 1" },
		"registered metrics ": func(o *Options) { newHTTPMetrics(o.Registry) },
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			o := good
			o.Registry = prometheus.NewRegistry()
			mutate(&o)
			if _, err := NewHandler(o); err == nil {
				t.Fatal("NewHandler accepted bad options")
			}
		})
	}
	o := good
	if _, err := NewHandler(o); err != nil {
		t.Fatalf("good options: %v", err)
	}
}
