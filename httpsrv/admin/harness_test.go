package admin

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/metrics"
	"github.com/docweave/docweave/report"
)

// testBackend is the Backend interface's in-memory test double. It keeps
// builds the way the daemon is specified to: a trigger while a build is
// queued joins that build; Finish moves a build to its final state.
type testBackend struct {
	mu       sync.Mutex
	seq      int
	builds   map[string]*BuildStatus
	order    []string // oldest first
	triggers []triggerCall
	snapshot Snapshot
	err      error // returned by the next Trigger calls when set
	panicMsg string
}

type triggerCall struct {
	Reason       string
	Repositories []string
}

func newTestBackend() *testBackend {
	return &testBackend{builds: map[string]*BuildStatus{}}
}

func (b *testBackend) Trigger(_ context.Context, reason string, repositories []string) (string, bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.panicMsg != "" {
		panic(b.panicMsg)
	}
	b.triggers = append(b.triggers, triggerCall{Reason: reason, Repositories: repositories})
	if b.err != nil {
		return "", false, b.err
	}
	for _, id := range b.order {
		if b.builds[id].State == StateQueued {
			return id, true, nil
		}
	}
	b.seq++
	id := fmt.Sprintf("b-%d", b.seq)
	b.builds[id] = &BuildStatus{ID: id, Reason: reason, State: StateQueued, RequestedAt: time.Unix(1_700_000_000+int64(b.seq), 0).UTC()}
	b.order = append(b.order, id)
	return id, false, nil
}

func (b *testBackend) Build(id string) (BuildStatus, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s, ok := b.builds[id]
	if !ok {
		return BuildStatus{}, false
	}
	return *s, true
}

func (b *testBackend) Snapshot() Snapshot {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.panicMsg != "" {
		panic(b.panicMsg)
	}
	s := b.snapshot
	s.Builds = nil
	for i := len(b.order) - 1; i >= 0; i-- {
		s.Builds = append(s.Builds, *b.builds[b.order[i]])
	}
	return s
}

// Finish ends build id with rep, as the pipeline would.
func (b *testBackend) Finish(id string, rep report.Report) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.builds[id]
	s.State = rep.Outcome
	finished := rep.FinishedAt
	s.FinishedAt = &finished
	s.Report = &rep
}

func (b *testBackend) calls() []triggerCall {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]triggerCall(nil), b.triggers...)
}

func (b *testBackend) setErr(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.err = err
}

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// harness is a running admin server on a loopback port.
type harness struct {
	srv       *httptest.Server
	backend   *testBackend
	metrics   *metrics.Metrics
	publicDir string
	logs      *syncBuffer
	token     string
}

func newHarness(t *testing.T, token string) *harness {
	t.Helper()
	h := &harness{
		backend:   newTestBackend(),
		metrics:   metrics.New(),
		publicDir: filepath.Join(t.TempDir(), "public"),
		logs:      &syncBuffer{},
		token:     token,
	}
	h.srv = httptest.NewServer(New(Options{
		Token:     token,
		PublicDir: h.publicDir,
		Metrics:   h.metrics,
		Backend:   h.backend,
		Log:       zerolog.New(h.logs).Level(zerolog.DebugLevel),
	}))
	t.Cleanup(h.srv.Close)
	return h
}

// closeAndLogs stops the server, waiting for every handler to finish, and
// returns everything logged.
func (h *harness) closeAndLogs() string {
	h.srv.Close()
	return h.logs.String()
}

// do sends a request with the harness's token (when it has one).
func (h *harness) do(t *testing.T, method, path, body string, header ...string) *http.Response {
	t.Helper()
	auth := []string{}
	if h.token != "" {
		auth = []string{"Authorization", "Bearer " + h.token}
	}
	return h.doRaw(t, method, path, body, append(auth, header...)...)
}

// doRaw sends a request with exactly the given header pairs.
func (h *harness) doRaw(t *testing.T, method, path, body string, header ...string) *http.Response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, h.srv.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	resp, err := h.srv.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func readBody(t *testing.T, resp *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wantError checks status, JSON content type and error code of resp.
func wantError(t *testing.T, resp *http.Response, status int, code string) Error {
	t.Helper()
	body := readBody(t, resp)
	if resp.StatusCode != status {
		t.Fatalf("status = %d, want %d; body %s", resp.StatusCode, status, body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type = %q, want application/json", ct)
	}
	var e Error
	if err := json.Unmarshal([]byte(body), &e); err != nil {
		t.Fatalf("error body %q is not JSON: %v", body, err)
	}
	if e.Code != code {
		t.Fatalf("code = %q, want %q (message %q)", e.Code, code, e.Message)
	}
	if e.Message == "" {
		t.Fatal("error message is empty")
	}
	return e
}

func decodeJSON[T any](t *testing.T, resp *http.Response) T {
	t.Helper()
	var v T
	body := readBody(t, resp)
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("body %q: %v", body, err)
	}
	return v
}
