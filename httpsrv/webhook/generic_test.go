package webhook

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// genericHeaders sign body for /webhook.
func genericHeaders(body []byte) map[string]string {
	return map[string]string{
		HeaderGenericSignature: "sha256=" + hexHMAC(testGenericSecret, body),
		HeaderGenericDelivery:  "ci-run-4711",
	}
}

func TestGenericAllRepositories(t *testing.T) {
	h := newHarness(t, nil)
	body := []byte(`{"reason": "nightly rebuild"}`)
	r := h.post(t, PathGeneric, genericHeaders(body), body)
	wantStatus(t, r, http.StatusAccepted)
	wantField(t, r, "status", "accepted")
	want := Trigger{Source: SourceGeneric, Event: "request", DeliveryID: "ci-run-4711",
		Repositories: []string{"hello", "gl-handbook", "fj-handbook", "local"}, Reason: "nightly rebuild"}
	if calls := h.rec.Calls(); len(calls) != 1 || !equalTriggers(calls[0], want) {
		t.Fatalf("triggers %+v, want [%+v]", calls, want)
	}
}

func TestGenericNamedRepositoriesAndBranch(t *testing.T) {
	h := newHarness(t, nil)
	cases := []struct {
		body   string
		status string
		repos  []string
	}{
		{`{"repositories": ["local", "hello", "local"]}`, "accepted", []string{"local", "hello"}},
		// gl-handbook follows main, hello follows the remote default.
		{`{"repositories": ["gl-handbook", "hello"], "branch": "main"}`, "accepted", []string{"gl-handbook", "hello"}},
		{`{"repositories": ["gl-handbook"], "branch": "develop"}`, "ignored", nil},
		{`{"branch": "develop"}`, "accepted", []string{"hello", "fj-handbook"}},
	}
	for _, c := range cases {
		before := len(h.rec.Calls())
		r := h.post(t, PathGeneric, genericHeaders([]byte(c.body)), []byte(c.body))
		wantStatus(t, r, http.StatusAccepted)
		if got, _ := r.body["status"].(string); got != c.status {
			t.Errorf("%s: status %q, want %q (%s)", c.body, got, c.status, r.raw)
			continue
		}
		calls := h.rec.Calls()
		if c.repos == nil {
			if len(calls) != before {
				t.Errorf("%s: triggered", c.body)
			}
			continue
		}
		if len(calls) != before+1 || !slices.Equal(calls[before].Repositories, c.repos) {
			t.Errorf("%s: triggers %+v, want repositories %v", c.body, calls[before:], c.repos)
		}
	}
}

func TestGenericBadRequests(t *testing.T) {
	h := newHarness(t, nil)
	cases := []struct {
		body    string
		code    ErrorCode
		mention string
	}{
		{`{"repositories": ["hello", "nope"]}`, CodeUnknownRepository, `repositories[1]: "nope"`},
		{`{"repository": ["hello"]}`, CodeInvalidPayload, `unknown field "repository"`},
		{`{"repositories": "hello"}`, CodeInvalidPayload, "repositories"},
		{`{"repositories": [""]}`, CodeInvalidPayload, "repositories[0]: empty name"},
		{`["hello"]`, CodeInvalidPayload, "not a JSON object"},
		{`null`, CodeInvalidPayload, "not a JSON object"},
		{``, CodeInvalidPayload, "empty body"},
		{`{} {}`, CodeInvalidPayload, "data after"},
		{`{"reason": "` + strings.Repeat("x", 501) + `"}`, CodeInvalidPayload, "reason: 501 bytes"},
		{`{"repositories": [`, CodeInvalidPayload, "body"},
	}
	for _, c := range cases {
		r := h.post(t, PathGeneric, genericHeaders([]byte(c.body)), []byte(c.body))
		if r.status != http.StatusBadRequest {
			t.Errorf("%.40s: status %d, want 400 (%s)", c.body, r.status, r.raw)
			continue
		}
		wantField(t, r, "code", c.code)
		if msg, _ := r.body["message"].(string); !strings.Contains(msg, c.mention) {
			t.Errorf("%.40s: message %q should mention %q", c.body, msg, c.mention)
		}
	}
	if n := len(h.rec.Calls()); n != 0 {
		t.Fatalf("trigger called %d times", n)
	}
}

func TestGenericRefusesBadSignatures(t *testing.T) {
	h := newHarness(t, nil)
	body := []byte(`{}`)
	for name, header := range map[string]map[string]string{
		"missing":      {},
		"wrong secret": {HeaderGenericSignature: "sha256=" + hexHMAC(testGitHubSecret, body)},
		"bare hex":     {HeaderGenericSignature: hexHMAC(testGenericSecret, body)},
		"github name":  {HeaderGitHubSignature: "sha256=" + hexHMAC(testGenericSecret, body)},
	} {
		r := h.post(t, PathGeneric, header, body)
		if r.status != http.StatusUnauthorized {
			t.Errorf("%s: status %d, want 401", name, r.status)
			continue
		}
		wantField(t, r, "code", CodeInvalidSignature)
	}
	// The signature is checked before the body is parsed: a malformed,
	// unsigned body is 401, not 400.
	r := h.post(t, PathGeneric, nil, []byte(`{not json`))
	wantStatus(t, r, http.StatusUnauthorized)
	if n := len(h.rec.Calls()); n != 0 {
		t.Fatalf("trigger called %d times", n)
	}
}

func TestGenericWithoutSecretRefusesEverything(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.Secrets.GenericSecret = "" })
	body := []byte(`{}`)
	r := h.post(t, PathGeneric, map[string]string{HeaderGenericSignature: "sha256=" + hexHMAC("", body)}, body)
	wantStatus(t, r, http.StatusUnauthorized)
	if !strings.Contains(r.raw, "daemon.webhooks.generic_secret") {
		t.Errorf("message does not name the configuration key: %s", r.raw)
	}
}

func TestGenericRequestIDFallback(t *testing.T) {
	h := newHarness(t, nil)
	body := []byte(`{}`)
	r := h.post(t, PathGeneric, map[string]string{
		HeaderGenericSignature: "sha256=" + hexHMAC(testGenericSecret, body),
		HeaderRequestID:        "req-99",
	}, body)
	wantField(t, r, "status", "accepted")
	if calls := h.rec.Calls(); len(calls) != 1 || calls[0].DeliveryID != "req-99" || calls[0].Reason != "generic webhook" {
		t.Fatalf("triggers %+v, want delivery req-99 and the default reason", calls)
	}
}
