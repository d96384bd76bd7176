package admin

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func TestTriggerWithoutBodyBuildsEverything(t *testing.T) {
	h := newHarness(t, "")
	resp := h.do(t, http.MethodPost, "/api/build/trigger", "")
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("status = %d, want 202", resp.StatusCode)
	}
	got := decodeJSON[TriggerResponse](t, resp)
	want := TriggerResponse{BuildID: "b-1", Coalesced: false, StatusURL: "/api/builds/b-1"}
	if got != want {
		t.Fatalf("body = %+v, want %+v", got, want)
	}
	if loc := resp.Header.Get("Location"); loc != want.StatusURL {
		t.Fatalf("Location = %q, want %q", loc, want.StatusURL)
	}
	calls := h.backend.calls()
	if len(calls) != 1 || calls[0].Reason != ReasonAdmin || len(calls[0].Repositories) != 0 {
		t.Fatalf("backend calls = %+v, want one with reason admin and no repositories", calls)
	}
}

func TestTriggerWithRepositoriesAndNote(t *testing.T) {
	h := newHarness(t, "tok")
	body := `{"repositories": [" api-docs ", "guides", "api-docs"], "reason": "  redeploy after fix "}`
	resp := h.do(t, http.MethodPost, "/api/build/trigger", body, "Content-Type", "application/json; charset=utf-8")
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("status = %d, want 202: %s", resp.StatusCode, readBody(t, resp))
	}
	calls := h.backend.calls()
	if len(calls) != 1 {
		t.Fatalf("backend got %d calls, want 1", len(calls))
	}
	if calls[0].Reason != "admin: redeploy after fix" {
		t.Errorf("reason = %q, want the note after the admin prefix", calls[0].Reason)
	}
	if want := []string{"api-docs", "guides"}; !reflect.DeepEqual(calls[0].Repositories, want) {
		t.Errorf("repositories = %q, want trimmed and de-duplicated %q", calls[0].Repositories, want)
	}
}

func TestTriggerWhileQueuedCoalesces(t *testing.T) {
	h := newHarness(t, "")
	first := decodeJSON[TriggerResponse](t, h.do(t, http.MethodPost, "/api/build/trigger", ""))
	second := decodeJSON[TriggerResponse](t, h.do(t, http.MethodPost, "/api/build/trigger", `{"repositories":["a"]}`))
	if first.Coalesced || !second.Coalesced || second.BuildID != first.BuildID {
		t.Fatalf("first %+v, second %+v: want the second coalesced into the first", first, second)
	}
}

func TestTriggerBackendErrors(t *testing.T) {
	cases := []struct {
		name   string
		err    error
		status int
		code   string
		shown  bool // whether the backend's message reaches the client
	}{
		{"unknown repository", fmt.Errorf("repository %q: %w", "nope", ErrUnknownRepository), http.StatusBadRequest, codeUnknownRepository, true},
		{"shutting down", fmt.Errorf("daemon stopping: %w", ErrNotAccepting), http.StatusServiceUnavailable, codeNotAccepting, true},
		{"internal", errors.New("publish build.requested to nats://10.0.0.5:4222: timeout"), http.StatusInternalServerError, codeInternal, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, "")
			h.backend.setErr(c.err)
			e := wantError(t, h.do(t, http.MethodPost, "/api/build/trigger", ""), c.status, c.code)
			if got := strings.Contains(e.Message, c.err.Error()); got != c.shown {
				t.Fatalf("message %q: backend error shown = %v, want %v", e.Message, got, c.shown)
			}
			if c.code == codeInternal {
				if logs := h.closeAndLogs(); !strings.Contains(logs, "10.0.0.5") {
					t.Fatalf("internal error not logged:\n%s", logs)
				}
			}
		})
	}
}

func TestTriggerRejectsBadBodies(t *testing.T) {
	cases := []struct {
		name, body, contentType string
		status                  int
		code, mention           string
	}{
		{"invalid JSON", `{"repositories": [`, "", http.StatusBadRequest, codeInvalidRequest, "invalid JSON"},
		{"unknown field", `{"repos": ["a"]}`, "", http.StatusBadRequest, codeInvalidRequest, `unknown field "repos"`},
		{"repositories not array", `{"repositories": "a"}`, "", http.StatusBadRequest, codeInvalidRequest, `field "repositories": expected an array`},
		{"repository not string", `{"repositories": [1]}`, "", http.StatusBadRequest, codeInvalidRequest, `"repositories`},
		{"reason not string", `{"reason": 5}`, "", http.StatusBadRequest, codeInvalidRequest, `field "reason": expected a string`},
		{"not an object", `["a"]`, "", http.StatusBadRequest, codeInvalidRequest, "expected a JSON object"},
		{"trailing data", `{} {}`, "", http.StatusBadRequest, codeInvalidRequest, "more data"},
		{"empty name", `{"repositories": ["a", " "]}`, "", http.StatusBadRequest, codeInvalidRequest, "repositories[1]"},
		{"long reason", `{"reason": "` + strings.Repeat("x", maxNoteLength+1) + `"}`, "", http.StatusBadRequest, codeInvalidRequest, "at most 200 characters"},
		{"control in reason", `{"reason": "a\nb"}`, "", http.StatusBadRequest, codeInvalidRequest, "control characters"},
		{"form content", `repositories=a`, "application/x-www-form-urlencoded", http.StatusUnsupportedMediaType, codeUnsupportedMediaType, "application/json"},
		{"too large", `{"reason": "` + strings.Repeat("x", maxTriggerBody) + `"}`, "", http.StatusRequestEntityTooLarge, codeBodyTooLarge, "larger than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, "")
			var header []string
			if c.contentType != "" {
				header = []string{"Content-Type", c.contentType}
			}
			e := wantError(t, h.do(t, http.MethodPost, "/api/build/trigger", c.body, header...), c.status, c.code)
			if !strings.Contains(e.Message, c.mention) {
				t.Fatalf("message %q does not mention %q", e.Message, c.mention)
			}
			if n := len(h.backend.calls()); n != 0 {
				t.Fatalf("a bad request reached the backend (%d calls)", n)
			}
		})
	}
}

func TestTriggerAllowsOnlyPost(t *testing.T) {
	h := newHarness(t, "")
	for _, m := range []string{http.MethodGet, http.MethodPut, http.MethodDelete} {
		resp := h.do(t, m, "/api/build/trigger", "")
		wantError(t, resp, http.StatusMethodNotAllowed, codeMethodNotAllowed)
		if got := resp.Header.Get("Allow"); got != "POST" {
			t.Errorf("%s: Allow = %q, want POST", m, got)
		}
	}
}
