package docs

import (
	"net/http"
	"path/filepath"
	"testing"
)

func TestCacheControlFor(t *testing.T) {
	cases := []struct{ name, ctype, want string }{
		{"index.html", "text/html; charset=utf-8", CacheDocument},
		{"search/index.json", "application/json", CacheDocument},
		{"css/docweave.min.24d6b280c5ff608de407230caa5244904fafbb576f92019cb0d7c92027a46f90.css", "text/css", CacheFingerprinted},
		{"js/app.0123456789abcdef0123456789abcdef.js", "text/javascript", CacheFingerprinted},
		{"css/site.css", "text/css", CacheDocument},
		{"images/logo.png", "image/png", CacheMedia},
		{"images/diagram.svg", "image/svg+xml", CacheDocument},
		{"fonts/x.woff2", "font/woff2", CacheMedia},
		{"deadbeefdeadbeefdeadbeefdeadbeef.css", "text/css", CacheDocument}, // the hash must be a middle segment
	}
	for _, c := range cases {
		if got := cacheControlFor(c.name, c.ctype); got != c.want {
			t.Errorf("cacheControlFor(%q, %q) = %q, want %q", c.name, c.ctype, got, c.want)
		}
	}
}

func TestSecurityAndCacheHeadersOverHTTP(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	writeSite(t, public, testSite)
	srv := startServer(t, public)

	cases := map[string]string{
		"/":                  CacheDocument,
		"/images/logo.png":   CacheMedia,
		"/search/index.json": CacheDocument,
		"/css/site.min.24d6b280c5ff608de407230caa5244904fafbb576f92019cb0d7c92027a46f90.css": CacheFingerprinted,
	}
	for p, want := range cases {
		r := get(t, srv.URL+p)
		if r.status != http.StatusOK {
			t.Fatalf("GET %s: %d", p, r.status)
		}
		if got := r.header.Get("Cache-Control"); got != want {
			t.Errorf("GET %s: Cache-Control %q, want %q", p, got, want)
		}
		if r.header.Get("X-Content-Type-Options") != "nosniff" || r.header.Get("X-Frame-Options") != "SAMEORIGIN" ||
			r.header.Get("Referrer-Policy") == "" {
			t.Errorf("GET %s: security headers missing: %v", p, r.header)
		}
	}
}
