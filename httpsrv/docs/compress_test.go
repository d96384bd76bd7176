package docs

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

func gunzip(t *testing.T, s string) string {
	t.Helper()
	zr, err := gzip.NewReader(strings.NewReader(s))
	if err != nil {
		t.Fatalf("body is not gzip: %v", err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestGzipForTextWhenAccepted(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	writeSite(t, public, testSite)
	srv := startServer(t, public)

	for _, p := range []string{"/docs/guide/", "/search/index.json"} {
		name := strings.TrimPrefix(p, "/")
		if strings.HasSuffix(name, "/") {
			name += "index.html"
		}
		want := testSite[name]
		for i := 0; i < 2; i++ { // compressing, then from the cache
			r := get(t, srv.URL+p, "Accept-Encoding: br, gzip;q=0.8")
			if r.header.Get("Content-Encoding") != "gzip" || r.header.Get("Vary") != "Accept-Encoding" {
				t.Fatalf("GET %s: Content-Encoding %q Vary %q", p, r.header.Get("Content-Encoding"), r.header.Get("Vary"))
			}
			if len(r.body) >= len(want) {
				t.Errorf("GET %s: gzip body %d bytes, not smaller than %d", p, len(r.body), len(want))
			}
			if got := gunzip(t, r.body); got != want {
				t.Fatalf("GET %s: decompressed body differs", p)
			}
		}
		r := get(t, srv.URL+p)
		if r.header.Get("Content-Encoding") != "" || r.body != want || r.header.Get("Vary") != "Accept-Encoding" {
			t.Fatalf("GET %s without Accept-Encoding: encoding %q, Vary %q, body ok %v",
				p, r.header.Get("Content-Encoding"), r.header.Get("Vary"), r.body == want)
		}
	}
}

func TestNoGzipForImagesRefusalOrRanges(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	writeSite(t, public, testSite)
	srv := startServer(t, public)

	if r := get(t, srv.URL+"/images/logo.png", "Accept-Encoding: gzip"); r.header.Get("Content-Encoding") != "" || r.body != testSite["images/logo.png"] {
		t.Fatalf("PNG was compressed: %q", r.header.Get("Content-Encoding"))
	}
	if r := get(t, srv.URL+"/docs/guide/", "Accept-Encoding: gzip;q=0, deflate"); r.header.Get("Content-Encoding") != "" {
		t.Fatalf("gzip;q=0 still got %q", r.header.Get("Content-Encoding"))
	}
	r := get(t, srv.URL+"/docs/guide/", "Accept-Encoding: gzip", "Range: bytes=0-9")
	if r.status != http.StatusPartialContent || r.body != testSite["docs/guide/index.html"][:10] {
		t.Fatalf("Range with gzip accepted: %d %q, want 206 with the first 10 identity bytes", r.status, r.body)
	}
}

func TestLargeTextIsCompressedWhileSending(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	big := strings.Repeat("line of searchable text\n", (maxCachedGzipSize/24)+100)
	writeSite(t, public, map[string]string{"big.txt": big})
	srv := startServer(t, public)

	r := get(t, srv.URL+"/big.txt", "Accept-Encoding: gzip")
	if r.header.Get("Content-Encoding") != "gzip" || gunzip(t, r.body) != big {
		t.Fatalf("large text: encoding %q, round trip ok %v", r.header.Get("Content-Encoding"), gunzip(t, r.body) == big)
	}
}

func TestAcceptsGzip(t *testing.T) {
	cases := map[string]bool{
		"":                       false,
		"gzip":                   true,
		"GZIP":                   true,
		"deflate, gzip;q=0.5":    true,
		"gzip;q=0":               false,
		"gzip; q=0.0, *":         false,
		"*":                      true,
		"*;q=0":                  false,
		"br":                     false,
		"x-gzip":                 true,
		"identity, gzip;q=bogus": true,
	}
	for header, want := range cases {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		if header != "" {
			r.Header.Set("Accept-Encoding", header)
		}
		if got := acceptsGzip(r); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", header, got, want)
		}
	}
}

func TestCompressible(t *testing.T) {
	yes := []string{"text/html; charset=utf-8", "text/css", "application/json", "image/svg+xml", "application/rss+xml", "text/javascript; charset=utf-8", "application/manifest+json"}
	no := []string{"image/png", "font/woff2", "application/zip", "application/octet-stream", "video/mp4"}
	for _, ct := range yes {
		if !compressible(ct) {
			t.Errorf("compressible(%q) = false", ct)
		}
	}
	for _, ct := range no {
		if compressible(ct) {
			t.Errorf("compressible(%q) = true", ct)
		}
	}
}

func TestGzipBytesRoundTrip(t *testing.T) {
	in := bytes.Repeat([]byte("docweave "), 100)
	gz, err := gzipBytes(in)
	if err != nil {
		t.Fatal(err)
	}
	if got := gunzip(t, string(gz)); got != string(in) {
		t.Fatal("round trip differs")
	}
}
