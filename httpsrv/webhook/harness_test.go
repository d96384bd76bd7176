package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/rs/zerolog"
)

// Test secrets. They are distinctive so a test can search the log for them.
const (
	testGitHubSecret  = "gh-secret-7c1f0e9a"
	testGitLabToken   = "gl-token-52ab90de"
	testForgejoSecret = "fj-secret-e3d4c5b6"
	testGenericSecret = "gen-secret-0a9b8c7d"
)

// testRepositories are configured to match the fixtures: the Octokit
// examples (Codertocat/Hello-World, default branch master), the GitLab
// fixtures (platform/docs/handbook, main) and the Forgejo fixtures
// (docs-team/handbook, main), each spelled differently from the payload.
func testRepositories() []config.Repository {
	return []config.Repository{
		{Name: "hello", URL: "git@github.com:codertocat/hello-world.git"},
		{Name: "gl-handbook", URL: "https://oauth2:secret-in-url@GitLab.example.org/platform/docs/handbook", Branch: "main"},
		{Name: "fj-handbook", URL: "http://code.example.net/docs-team/handbook/"},
		{Name: "local", URL: "/srv/git/local-docs", Branch: "main"},
	}
}

// triggerRecorder is the Trigger function of the tests: it records calls
// and answers with a fixed result or error.
type triggerRecorder struct {
	mu     sync.Mutex
	calls  []Trigger
	result TriggerResult
	err    error
}

func (rec *triggerRecorder) trigger(_ context.Context, t Trigger) (TriggerResult, error) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.calls = append(rec.calls, t)
	return rec.result, rec.err
}

// Calls returns a copy of the recorded triggers.
func (rec *triggerRecorder) Calls() []Trigger {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]Trigger(nil), rec.calls...)
}

// syncBuffer is a goroutine-safe log sink.
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

// harness is a webhook server on a loopback port with a recording trigger.
type harness struct {
	url  string
	rec  *triggerRecorder
	logs *syncBuffer
}

// newHarness starts the server; edit may change the options first.
func newHarness(t testing.TB, edit func(*Options)) *harness {
	t.Helper()
	rec := &triggerRecorder{result: TriggerResult{BuildID: "build-0001"}}
	logs := &syncBuffer{}
	opts := Options{
		Secrets: config.Webhooks{
			GitHubSecret:  testGitHubSecret,
			GitLabToken:   testGitLabToken,
			ForgejoSecret: testForgejoSecret,
			GenericSecret: testGenericSecret,
			MaxBodyBytes:  1 << 20,
		},
		Repositories: testRepositories(),
		Trigger:      rec.trigger,
		Log:          zerolog.New(logs).Level(zerolog.DebugLevel),
	}
	if edit != nil {
		edit(&opts)
	}
	srv := httptest.NewServer(New(opts))
	t.Cleanup(srv.Close)
	return &harness{url: srv.URL, rec: rec, logs: logs}
}

// response is a decoded answer.
type response struct {
	status int
	header http.Header
	body   map[string]any
	raw    string
}

// do sends one request and decodes the JSON answer.
func (h *harness) do(t testing.TB, method, path string, header map[string]string, body []byte) response {
	t.Helper()
	req, err := http.NewRequest(method, h.url+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	out := response{status: resp.StatusCode, header: resp.Header, raw: string(raw)}
	if method != http.MethodHead {
		if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
			t.Fatalf("%s %s: Content-Type %q, want application/json (body %s)", method, path, ct, raw)
		}
		if err := json.Unmarshal(raw, &out.body); err != nil {
			t.Fatalf("%s %s: body %q is not a JSON object: %v", method, path, raw, err)
		}
	}
	return out
}

// post sends a POST with a JSON content type and the given headers.
func (h *harness) post(t testing.TB, path string, header map[string]string, body []byte) response {
	t.Helper()
	all := map[string]string{"Content-Type": "application/json"}
	for k, v := range header {
		all[k] = v
	}
	return h.do(t, http.MethodPost, path, all, body)
}

// hexHMAC is the hex HMAC-SHA256 of body, computed independently of the
// code under test.
func hexHMAC(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// githubHeaders are the headers GitHub sends, correctly signed.
func githubHeaders(event string, body []byte) map[string]string {
	return map[string]string{
		HeaderGitHubEvent:     event,
		HeaderGitHubDelivery:  "72d3162e-cc78-11e3-81ab-4c9367dc0958",
		HeaderGitHubSignature: "sha256=" + hexHMAC(testGitHubSecret, body),
		"User-Agent":          "GitHub-Hookshot/044aadd",
	}
}

// readFixture reads a file under testdata.
func readFixture(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", path))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// githubExamples reads the examples of one event from testdata/github.
func githubExamples(t testing.TB, event string) []json.RawMessage {
	t.Helper()
	var examples []json.RawMessage
	if err := json.Unmarshal(readFixture(t, filepath.Join("github", event+".json")), &examples); err != nil {
		t.Fatalf("github/%s.json: %v", event, err)
	}
	if len(examples) == 0 {
		t.Fatalf("github/%s.json has no examples", event)
	}
	return examples
}

// wantStatus fails the test when the answer has another status.
func wantStatus(t testing.TB, r response, status int) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body %s", r.status, status, r.raw)
	}
}

// wantField fails the test when a top-level body field differs.
func wantField(t testing.TB, r response, key string, want any) {
	t.Helper()
	if got := r.body[key]; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("body[%q] = %v, want %v; body %s", key, got, want, r.raw)
	}
}
