package browsertest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site"
)

// fixtureProject is the site package's fixture: two repositories with
// tags, categories, a custom taxonomy, a README section, callouts and
// shortcodes of other themes.
const fixtureProject = "../testdata/project"

// renderFixture renders the fixture into a fresh directory with the given
// base URL and theme parameters and returns the publish directory.
func renderFixture(t *testing.T, baseURL string, params map[string]any) string {
	t.Helper()
	return renderFixtureWith(t, baseURL, params, nil)
}

// addPages writes pages (content by slash path below content/) into the
// project, making their directories.
func addPages(t *testing.T, project string, pages map[string]string) {
	t.Helper()
	for rel, text := range pages {
		file := filepath.Join(project, "content", filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// renderFixtureWith is renderFixture with more pages: content by path
// below content/.
func renderFixtureWith(t *testing.T, baseURL string, params map[string]any, pages map[string]string) string {
	t.Helper()
	project := filepath.Join(t.TempDir(), "project")
	if err := os.CopyFS(project, os.DirFS(fixtureProject)); err != nil {
		t.Fatalf("copy fixture: %v", err)
	}
	pages = maps.Clone(pages)
	if pages == nil {
		pages = map[string]string{}
	}
	pages["alpha/guide/wide.md"] = widePage
	addPages(t, project, pages)
	publish := filepath.Join(t.TempDir(), "public")
	logs := &bytes.Buffer{}
	_, err := site.Render(context.Background(), site.Options{
		ProjectDir: project,
		PublishDir: publish,
		Generator: config.Generator{
			Title:       "Fixture Docs",
			Description: "Two repositories, rendered for tests.",
			BaseURL:     baseURL,
			Params:      params,
			Taxonomies:  map[string]string{"tag": "tags", "category": "categories", "team": "teams"},
		},
		Repositories: []site.Repository{
			{Name: "alpha", ContentPath: "alpha", EditURL: "https://forge.example.org/docs/alpha/edit/main/docs/{path}"},
			{Name: "beta", ContentPath: "beta"},
		},
		Logger: zerolog.New(logs),
	})
	if err != nil {
		t.Fatalf("render the fixture: %v\n%s", err, logs)
	}
	return publish
}

// serveSite serves a rendered site under prefix ("/" or a sub-path such as
// "/handbook/") on a random port of 127.0.0.1, as the docs server does:
// files as they are, the site's 404.html with status 404 for anything else.
// It returns the site's root URL.
func serveSite(t *testing.T, dir, prefix string) string {
	t.Helper()
	files := http.FileServer(http.Dir(dir))
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rel, ok := strings.CutPrefix(r.URL.Path, strings.TrimSuffix(prefix, "/"))
		if !ok {
			http.NotFound(w, r)
			return
		}
		file := filepath.Join(dir, filepath.FromSlash(path.Clean("/"+rel)))
		if st, err := os.Stat(file); err == nil && st.IsDir() {
			file = filepath.Join(file, "index.html")
		}
		if _, err := os.Stat(file); err != nil {
			page, _ := os.ReadFile(filepath.Join(dir, "404.html"))
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			w.Write(page)
			return
		}
		r2 := r.Clone(r.Context())
		r2.URL.Path = "/" + strings.TrimPrefix(rel, "/")
		files.ServeHTTP(w, r2)
	})
	return "http://" + listen(t, handler) + strings.TrimSuffix(prefix, "/")
}

// listen serves handler on a random port of 127.0.0.1 until the test ends
// and returns the address.
func listen(t *testing.T, handler http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("test server: %v", err)
		}
	}()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		_ = srv.Close()
	})
	return ln.Addr().String()
}

// reloadServer is a stand-in for the daemon's live-reload server speaking
// the same protocol: GET /sse is an event stream that opens with a hello
// event and then carries reload events. It can refuse the first stream, as
// the daemon does while it shuts down, to check that pages reconnect.
type reloadServer struct {
	port      int
	connected chan int // the number of each stream opened

	mu          sync.Mutex
	streams     int
	open        map[int]chan string // frames for each open stream
	refuseFirst bool
}

func startReloadServer(t *testing.T, refuseFirst bool) *reloadServer {
	t.Helper()
	s := &reloadServer{connected: make(chan int, 64), open: map[int]chan string{}, refuseFirst: refuseFirst}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /sse", s.serveStream)
	addr := listen(t, mux)
	_, port, _ := net.SplitHostPort(addr)
	fmt.Sscan(port, &s.port)
	return s
}

func (s *reloadServer) serveStream(w http.ResponseWriter, r *http.Request) {
	frames := make(chan string, 4)
	s.mu.Lock()
	s.streams++
	n := s.streams
	refuse := n == 1 && s.refuseFirst
	if !refuse {
		s.open[n] = frames
	}
	s.mu.Unlock()
	w.Header().Set("Access-Control-Allow-Origin", "*")
	if refuse {
		http.Error(w, `{"code":"shutting_down"}`, http.StatusServiceUnavailable)
		return
	}
	defer func() {
		s.mu.Lock()
		delete(s.open, n)
		s.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "retry: 300\n\nevent: hello\nid: 1\ndata: {\"build_id\":\"b1\"}\n\n")
	w.(http.Flusher).Flush()
	s.connected <- n
	for {
		select {
		case frame := <-frames:
			fmt.Fprint(w, frame)
			w.(http.Flusher).Flush()
		case <-r.Context().Done():
			return
		}
	}
}

// sendReload announces a published build to every open stream, as the
// daemon does.
func (s *reloadServer) sendReload(build string) {
	frame := fmt.Sprintf("event: reload\nid: 2\ndata: {\"build_id\":%q,\"site\":\"sha256:00\",\"pages\":9,\"time\":\"2026-01-01T00:00:00Z\"}\n\n", build)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, frames := range s.open {
		frames <- frame
	}
}

// widePage is a page wider than a phone: a table of many columns and a
// long unbroken inline code span (the browser tests check that only the
// table scrolls, inside a region the keyboard can reach).
const widePage = `---
title: Wide content
---

| Setting | Environment variable | Command-line flag | Configuration key | Default value | Meaning |
|---|---|---|---|---|---|
| workers | ALPHA_WORKER_PROCESSES | --worker-processes | processing.workers.count | number-of-cores | How many worker processes run |
| retention | ALPHA_RETENTION_PERIOD | --retention-period | storage.retention.period | thirty-days | How long finished jobs are kept |

Set ` + "`ALPHA_WORKER_PROCESSES_AND_RETENTION_PERIOD_AND_CONFIGURATION_DIRECTORY_OVERRIDE`" + ` once.
`
