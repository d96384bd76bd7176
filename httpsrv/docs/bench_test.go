package docs

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"
)

// benchmarkHTTP measures one GET of the guide page over loopback HTTP,
// connection reused, body read in full.
func benchmarkHTTP(b *testing.B, acceptEncoding string) {
	public := filepath.Join(b.TempDir(), "public")
	writeSite(b, public, testSite)
	srv := startServer(b, public)
	client := &http.Client{Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 4}}
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/docs/guide/", nil)
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	b.ReportAllocs()
	for b.Loop() {
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
}

func BenchmarkServePageHTTP(b *testing.B)     { benchmarkHTTP(b, "") }
func BenchmarkServePageHTTPGzip(b *testing.B) { benchmarkHTTP(b, "gzip") }

// BenchmarkServePageHandler measures the handler alone (no network): open
// the site root, resolve, validators from the cache, copy the file.
func BenchmarkServePageHandler(b *testing.B) {
	public := filepath.Join(b.TempDir(), "public")
	writeSite(b, public, testSite)
	benchmarkHandler(b, public)
}

// benchmarkHandler serves /docs/guide/ of the site in public again and
// again through the handler alone.
func benchmarkHandler(b *testing.B, public string) {
	h := New(Options{PublicDir: public, Log: zerolog.Nop()})
	req := httptest.NewRequest(http.MethodGet, "/docs/guide/", nil)
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
}

// BenchmarkServePageNotModified measures a revalidation answered with 304.
func BenchmarkServePageNotModified(b *testing.B) {
	public := filepath.Join(b.TempDir(), "public")
	writeSite(b, public, testSite)
	h := New(Options{PublicDir: public, Log: zerolog.Nop()})
	first := httptest.NewRecorder()
	h.ServeHTTP(first, httptest.NewRequest(http.MethodGet, "/docs/guide/", nil))
	req := httptest.NewRequest(http.MethodGet, "/docs/guide/", nil)
	req.Header.Set("If-None-Match", first.Header().Get("ETag"))
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusNotModified {
			b.Fatalf("status %d", rec.Code)
		}
	}
}
