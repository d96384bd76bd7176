package gittest

import (
	"bytes"
	"crypto/subtle"
	"io"
	"net"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// HTTPOptions shapes an HTTPServer's behaviour: authentication it demands and
// failures it injects, so clients can be tested against realistic forges.
type HTTPOptions struct {
	// BasicUser and BasicPassword, when BasicUser is set, make the server
	// demand HTTP basic authentication with exactly these credentials.
	BasicUser, BasicPassword string
	// Token, when set, makes the server demand a token. It is accepted the
	// way gitx sends tokens — HTTP basic authentication whose password is
	// the token (the user name is ignored, as most forges do) — and also as
	// "Authorization: Bearer <token>". When both Token and BasicUser are set,
	// either credential is accepted.
	Token string
	// FailFirst makes the first FailFirst requests fail: with FailStatus, or
	// with a TCP reset when FailReset is set.
	FailFirst int
	// FailStatus is the status of the injected failures (default 503).
	FailStatus int
	// FailReset resets the connection instead of answering.
	FailReset bool
}

// HTTPServer serves every repository under a project root over Git's smart
// HTTP protocol by running the real `git http-backend` through net/http/cgi
// on 127.0.0.1 and a random port. It is closed when the test ends.
type HTTPServer struct {
	opts     HTTPOptions
	root     string
	backend  http.Handler
	server   *httptest.Server
	requests atomic.Int64
}

// NewHTTPServer starts a server with opts; t.Cleanup closes it.
func NewHTTPServer(t testing.TB, opts HTTPOptions) *HTTPServer {
	t.Helper()
	backendPath := requireExecProgram(t, "git-http-backend")
	if opts.FailStatus == 0 {
		opts.FailStatus = http.StatusServiceUnavailable
	}
	s := &HTTPServer{opts: opts, root: t.TempDir()}
	s.backend = &cgi.Handler{
		Path: backendPath,
		Root: "/",
		Env: []string{
			"GIT_PROJECT_ROOT=" + s.root,
			"GIT_HTTP_EXPORT_ALL=1",
			"GIT_CONFIG_GLOBAL=/dev/null",
			"GIT_CONFIG_NOSYSTEM=1",
			"PATH=" + os.Getenv("PATH"),
		},
		Stderr: newTestLogWriter(t, "git-http-backend"),
	}
	s.server = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	t.Cleanup(s.server.Close)
	return s
}

// Add exposes r under name (which may contain slashes, e.g. "org/docs") and
// returns its clone URL http://127.0.0.1:port/<name>.git. The server serves
// r's own .git directory through a symbolic link, so later commits, branch
// switches and history rewrites in r are visible at once; the remote's
// default branch is whatever r has checked out.
func (s *HTTPServer) Add(t testing.TB, name string, r *Repo) string {
	t.Helper()
	linkRepo(t, s.root, name, r)
	return s.server.URL + "/" + strings.Trim(name, "/") + ".git"
}

// URL is the base URL of the server, http://127.0.0.1:port.
func (s *HTTPServer) URL() string { return s.server.URL }

// Requests is how many HTTP requests the server has received, including
// rejected and deliberately failed ones.
func (s *HTTPServer) Requests() int { return int(s.requests.Load()) }

func (s *HTTPServer) serveHTTP(w http.ResponseWriter, r *http.Request) {
	n := s.requests.Add(1)
	if n <= int64(s.opts.FailFirst) {
		s.fail(w)
		return
	}
	if !s.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Basic realm="gittest"`)
		http.Error(w, "authentication required", http.StatusUnauthorized)
		return
	}
	if len(r.TransferEncoding) > 0 {
		// CGI cannot pass a chunked body on (net/http/cgi answers 400), and
		// the git command line sends large requests chunked: buffer them,
		// as a web server in front of git http-backend would.
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, "read request body: "+err.Error(), http.StatusBadRequest)
			return
		}
		r.Body, r.ContentLength, r.TransferEncoding = io.NopCloser(bytes.NewReader(body)), int64(len(body)), nil
	}
	s.backend.ServeHTTP(w, r)
}

// fail answers an injected failure: a status, or a TCP reset (SO_LINGER 0
// followed by close makes the kernel send RST instead of FIN).
func (s *HTTPServer) fail(w http.ResponseWriter) {
	if !s.opts.FailReset {
		http.Error(w, "injected failure", s.opts.FailStatus)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "cannot reset: connection not hijackable", http.StatusInternalServerError)
		return
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		return
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0)
	}
	_ = conn.Close()
}

func (s *HTTPServer) authorized(r *http.Request) bool {
	if s.opts.BasicUser == "" && s.opts.Token == "" {
		return true
	}
	if user, pass, ok := r.BasicAuth(); ok {
		if s.opts.BasicUser != "" && equal(user, s.opts.BasicUser) && equal(pass, s.opts.BasicPassword) {
			return true
		}
		if s.opts.Token != "" && equal(pass, s.opts.Token) {
			return true
		}
	}
	if s.opts.Token != "" {
		if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && equal(bearer, s.opts.Token) {
			return true
		}
	}
	return false
}

func equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// linkRepo makes root/<name>.git a symbolic link to r's .git directory.
func linkRepo(t testing.TB, root, name string, r *Repo) {
	t.Helper()
	clean := strings.Trim(filepath.ToSlash(filepath.Clean("/"+name)), "/")
	if clean == "" || clean != strings.Trim(name, "/") {
		t.Fatalf("gittest: repository name %q must be a plain relative path such as \"org/docs\"", name)
	}
	link := filepath.Join(root, filepath.FromSlash(clean)+".git")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatalf("gittest: create %s: %v", filepath.Dir(link), err)
	}
	if err := os.Symlink(filepath.Join(r.Dir(), ".git"), link); err != nil {
		t.Fatalf("gittest: expose %s as %s: %v", r.Dir(), name, err)
	}
}

// testLogWriter forwards a helper program's standard error to the test log
// while the test runs and drops it afterwards (logging after a test has
// ended panics).
type testLogWriter struct {
	mu     sync.Mutex
	t      testing.TB
	prefix string
	done   bool
}

func newTestLogWriter(t testing.TB, prefix string) *testLogWriter {
	w := &testLogWriter{t: t, prefix: prefix}
	t.Cleanup(func() {
		w.mu.Lock()
		w.done = true
		w.mu.Unlock()
	})
	return w
}

func (w *testLogWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.done {
		w.t.Logf("%s: %s", w.prefix, strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}
