package webhook

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/rs/zerolog"
)

func TestHealth(t *testing.T) {
	h := newHarness(t, nil)
	r := h.do(t, http.MethodGet, PathHealth, nil, nil)
	wantStatus(t, r, http.StatusOK)
	wantField(t, r, "status", "ok")

	head := h.do(t, http.MethodHead, PathHealth, nil, nil)
	wantStatus(t, head, http.StatusOK)

	post := h.do(t, http.MethodPost, PathHealth, nil, nil)
	wantStatus(t, post, http.StatusMethodNotAllowed)
	if allow := post.header.Get("Allow"); allow != "GET, HEAD" {
		t.Errorf("Allow %q, want GET, HEAD", allow)
	}
}

func TestWebhookPathsAcceptOnlyPost(t *testing.T) {
	h := newHarness(t, nil)
	paths := []string{PathGitHub, PathGitLab, PathForgejo, PathGitHubAlias, PathGitLabAlias, PathForgejoAlias, PathGeneric}
	for _, path := range paths {
		for _, method := range []string{http.MethodGet, http.MethodPut, http.MethodDelete, http.MethodPatch} {
			r := h.do(t, method, path, nil, nil)
			if r.status != http.StatusMethodNotAllowed {
				t.Errorf("%s %s: status %d, want 405", method, path, r.status)
				continue
			}
			if allow := r.header.Get("Allow"); allow != "POST" {
				t.Errorf("%s %s: Allow %q, want POST", method, path, allow)
			}
			wantField(t, r, "code", CodeMethodNotAllowed)
		}
	}
	if n := len(h.rec.Calls()); n != 0 {
		t.Errorf("trigger called %d times by non-POST requests", n)
	}
}

func TestUnknownPathIsNotFound(t *testing.T) {
	h := newHarness(t, nil)
	for _, path := range []string{"/", "/webhooks", "/webhooks/bitbucket", "/webhooks/github/extra"} {
		r := h.do(t, http.MethodPost, path, nil, nil)
		if r.status != http.StatusNotFound {
			t.Errorf("POST %s: status %d, want 404", path, r.status)
		}
		wantField(t, r, "code", CodeNotFound)
	}
}

func TestAliasesServeTheirForge(t *testing.T) {
	h := newHarness(t, nil)
	push := githubExamples(t, "push")[4] // a push to refs/heads/master
	r := h.post(t, PathGitHubAlias, githubHeaders("push", push), push)
	wantStatus(t, r, http.StatusAccepted)
	wantField(t, r, "status", "accepted")

	gl := readFixture(t, "gitlab/push_hook.json")
	r = h.post(t, PathGitLabAlias, map[string]string{HeaderGitLabEvent: "Push Hook", HeaderGitLabToken: testGitLabToken}, gl)
	wantStatus(t, r, http.StatusAccepted)
	wantField(t, r, "status", "accepted")

	fj := readFixture(t, "forgejo/push.json")
	r = h.post(t, PathForgejoAlias, map[string]string{HeaderForgejoEvent: "push", HeaderForgejoSignature: hexHMAC(testForgejoSecret, fj)}, fj)
	wantStatus(t, r, http.StatusAccepted)
	wantField(t, r, "status", "accepted")

	if n := len(h.rec.Calls()); n != 3 {
		t.Fatalf("trigger called %d times, want 3", n)
	}
}

func TestOversizedBodyIs413(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.Secrets.MaxBodyBytes = 1024 })
	big := bytes.Repeat([]byte("a"), 2048)
	for _, path := range []string{PathGitHub, PathGitLab, PathForgejo, PathGeneric} {
		r := h.post(t, path, githubHeaders("push", big), big)
		if r.status != http.StatusRequestEntityTooLarge {
			t.Errorf("POST %s: status %d, want 413", path, r.status)
			continue
		}
		wantField(t, r, "code", CodePayloadTooLarge)
	}
	if n := len(h.rec.Calls()); n != 0 {
		t.Errorf("trigger called %d times by oversized requests", n)
	}
}

func TestOversizedBodyWithoutContentLengthIs413(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.Secrets.MaxBodyBytes = 1024 })
	big := bytes.Repeat([]byte("b"), 4096)
	// An io.Reader of unknown length makes the client send the body chunked,
	// so only reading it reveals the size.
	req, err := http.NewRequest(http.MethodPost, h.url+PathGitHub, io.MultiReader(bytes.NewReader(big)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(HeaderGitHubEvent, "push")
	req.Header.Set(HeaderGitHubSignature, "sha256="+hexHMAC(testGitHubSecret, big))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if req.ContentLength != 0 || resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("content length %d, status %d; want a chunked request answered 413", req.ContentLength, resp.StatusCode)
	}
}

func TestBodyAtTheLimitIsAccepted(t *testing.T) {
	push := githubExamples(t, "push")[4]
	h := newHarness(t, func(o *Options) { o.Secrets.MaxBodyBytes = len(push) })
	r := h.post(t, PathGitHub, githubHeaders("push", push), push)
	wantStatus(t, r, http.StatusAccepted)
}

func TestDefaultBodyLimitApplies(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.Secrets.MaxBodyBytes = 0 })
	big := bytes.Repeat([]byte(" "), DefaultMaxBodyBytes+1)
	r := h.post(t, PathGitHub, githubHeaders("push", big), big)
	wantStatus(t, r, http.StatusRequestEntityTooLarge)
}

func TestTriggerFailureIs503(t *testing.T) {
	h := newHarness(t, nil)
	h.rec.err = io.ErrUnexpectedEOF
	push := githubExamples(t, "push")[4]
	r := h.post(t, PathGitHub, githubHeaders("push", push), push)
	wantStatus(t, r, http.StatusServiceUnavailable)
	wantField(t, r, "code", CodeTriggerFailed)
	if strings.Contains(r.raw, io.ErrUnexpectedEOF.Error()) {
		t.Errorf("internal cause leaked to the client: %s", r.raw)
	}
	if !strings.Contains(h.logs.String(), io.ErrUnexpectedEOF.Error()) {
		t.Errorf("the cause is not in the log: %s", h.logs.String())
	}
}

func TestNilTriggerAnswers503(t *testing.T) {
	srv := httptest.NewServer(New(Options{
		Secrets:      config.Webhooks{GitHubSecret: testGitHubSecret},
		Repositories: testRepositories(),
		Log:          zerolog.Nop(),
	}))
	defer srv.Close()
	push := githubExamples(t, "push")[4]
	req, _ := http.NewRequest(http.MethodPost, srv.URL+PathGitHub, bytes.NewReader(push))
	for k, v := range githubHeaders("push", push) {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503", resp.StatusCode)
	}
}

func TestTriggerReceivesRequestContext(t *testing.T) {
	var got context.Context
	h := newHarness(t, func(o *Options) {
		o.Trigger = func(ctx context.Context, _ Trigger) (TriggerResult, error) {
			got = ctx
			return TriggerResult{BuildID: "b-ctx", Coalesced: true}, nil
		}
	})
	push := githubExamples(t, "push")[4]
	r := h.post(t, PathGitHub, githubHeaders("push", push), push)
	wantStatus(t, r, http.StatusAccepted)
	wantField(t, r, "build_id", "b-ctx")
	wantField(t, r, "coalesced", true)
	if got == nil {
		t.Fatal("trigger got no context")
	}
}
