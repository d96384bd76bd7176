package admin

import (
	"net/http"
	"strings"
	"testing"
)

func TestBearerToken(t *testing.T) {
	cases := []struct {
		name    string
		lines   []string
		token   string
		problem string
	}{
		{"none", nil, "", codeMissingCredentials},
		{"blank", []string{"  "}, "", codeMissingCredentials},
		{"ok", []string{"Bearer abc.DEF-1_2~+/="}, "abc.DEF-1_2~+/=", ""},
		{"scheme case-insensitive", []string{"bEaReR tok"}, "tok", ""},
		{"extra spaces", []string{"Bearer   tok"}, "tok", ""},
		{"basic scheme", []string{"Basic dXNlcjpwYXNz"}, "", codeMalformedCredentials},
		{"scheme only", []string{"Bearer"}, "", codeMalformedCredentials},
		{"space in token", []string{"Bearer a b"}, "", codeMalformedCredentials},
		{"two headers", []string{"Bearer a", "Bearer b"}, "", codeMalformedCredentials},
		{"padding inside", []string{"Bearer a=b"}, "", codeMalformedCredentials},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			token, problem := bearerToken(c.lines)
			if token != c.token || problem != c.problem {
				t.Fatalf("bearerToken(%q) = %q, %q; want %q, %q", c.lines, token, problem, c.token, c.problem)
			}
		})
	}
}

func TestTokenProtectsAPIAndStatus(t *testing.T) {
	const token = "s3cret-admin-token"
	h := newHarness(t, token)
	protected := []struct{ method, path string }{
		{http.MethodPost, "/api/build/trigger"},
		{http.MethodGet, "/api/builds/b-1"},
		{http.MethodGet, "/status"},
		{http.MethodGet, "/api/nothing-here"},
	}
	for _, p := range protected {
		resp := h.doRaw(t, p.method, p.path, "")
		e := wantError(t, resp, http.StatusUnauthorized, codeMissingCredentials)
		if got := resp.Header.Get("WWW-Authenticate"); got != `Bearer realm="docweave-admin"` {
			t.Errorf("%s %s without token: WWW-Authenticate = %q", p.method, p.path, got)
		}
		if strings.Contains(e.Message, token) {
			t.Errorf("error message reveals the token: %q", e.Message)
		}

		resp = h.doRaw(t, p.method, p.path, "", "Authorization", "Bearer wrong-token")
		wantError(t, resp, http.StatusUnauthorized, codeInvalidCredentials)
		if got := resp.Header.Get("WWW-Authenticate"); got != `Bearer realm="docweave-admin", error="invalid_token"` {
			t.Errorf("%s %s wrong token: WWW-Authenticate = %q", p.method, p.path, got)
		}

		resp = h.doRaw(t, p.method, p.path, "", "Authorization", "Basic "+token)
		wantError(t, resp, http.StatusUnauthorized, codeMalformedCredentials)

		// A prefix of the right token is still wrong.
		resp = h.doRaw(t, p.method, p.path, "", "Authorization", "Bearer "+token[:len(token)-1])
		wantError(t, resp, http.StatusUnauthorized, codeInvalidCredentials)
	}
	if len(h.backend.calls()) != 0 {
		t.Fatal("an unauthenticated trigger reached the backend")
	}

	if resp := h.do(t, http.MethodPost, "/api/build/trigger", ""); resp.StatusCode != http.StatusAccepted {
		t.Fatalf("trigger with token: status %d, want 202", resp.StatusCode)
	}
	if resp := h.do(t, http.MethodGet, "/status", ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("status with token: status %d, want 200", resp.StatusCode)
	}
	wantError(t, h.do(t, http.MethodGet, "/api/nothing-here", ""), http.StatusNotFound, codeNotFound)

	if logs := h.closeAndLogs(); strings.Contains(logs, token) {
		t.Fatalf("the token reached the log:\n%s", logs)
	}
}

func TestProbesAndMetricsNeedNoToken(t *testing.T) {
	h := newHarness(t, "s3cret")
	for _, path := range []string{"/health", "/metrics"} {
		if resp := h.doRaw(t, http.MethodGet, path, ""); resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s without token = %d, want 200", path, resp.StatusCode)
		}
	}
	// /ready answers on its own terms (503: nothing rendered), not 401.
	wantError(t, h.doRaw(t, http.MethodGet, "/ready", ""), http.StatusServiceUnavailable, codeNotReady)
}

func TestNoTokenMeansNoAuthentication(t *testing.T) {
	h := newHarness(t, "")
	if resp := h.doRaw(t, http.MethodPost, "/api/build/trigger", ""); resp.StatusCode != http.StatusAccepted {
		t.Fatalf("trigger without configured token = %d, want 202", resp.StatusCode)
	}
	if resp := h.doRaw(t, http.MethodGet, "/status", ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("status without configured token = %d, want 200", resp.StatusCode)
	}
}
