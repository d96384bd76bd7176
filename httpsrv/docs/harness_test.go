package docs

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// testSite is a small rendered site with the shapes Hugo produces.
var testSite = map[string]string{
	"index.html":            "<!DOCTYPE html><title>Home</title><h1>Welcome</h1>",
	"404.html":              "<!DOCTYPE html><title>Not found</title><h1>Page not found</h1>",
	"docs/index.html":       "<!DOCTYPE html><title>Docs</title>",
	"docs/guide/index.html": "<!DOCTYPE html><title>Guide</title>" + strings.Repeat("<p>guide text</p>", 100),
	"search/index.json":     `[{"title":"Guide","url":"/docs/guide/"}` + strings.Repeat(`,{"title":"x","url":"/x/"}`, 40) + `]`,
	"css/site.min.24d6b280c5ff608de407230caa5244904fafbb576f92019cb0d7c92027a46f90.css": "body{margin:0}",
	"images/logo.png": "\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", 600),
}

// writeSite creates dir and the given files under it.
func writeSite(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// startServer serves publicDir over real HTTP on 127.0.0.1.
func startServer(t testing.TB, publicDir string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(New(Options{PublicDir: publicDir, Log: zerolog.Nop()}))
	t.Cleanup(srv.Close)
	return srv
}

// plainClient never adds Accept-Encoding or decompresses, so tests see the
// bytes on the wire, and never follows redirects.
var plainClient = &http.Client{
	Transport: &http.Transport{DisableCompression: true},
	CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	},
}

type response struct {
	status int
	header http.Header
	body   string
}

// do sends method to url with extra headers ("Name: value").
func do(t testing.TB, method, url string, headers ...string) response {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range headers {
		if h == "" {
			continue
		}
		name, value, _ := strings.Cut(h, ":")
		req.Header.Set(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	resp, err := plainClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: string(body)}
}

func get(t testing.TB, url string, headers ...string) response {
	t.Helper()
	return do(t, http.MethodGet, url, headers...)
}

// rawGet sends a request line exactly as given (no client-side path
// cleaning), for traversal tests.
func rawGet(t testing.TB, srv *httptest.Server, target string) response {
	t.Helper()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET "+target+" HTTP/1.1\r\nHost: docs.test\r\nConnection: close\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: string(body)}
}
