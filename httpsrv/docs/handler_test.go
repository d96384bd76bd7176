package docs

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlaceholderUntilSiteAppearsThenSite(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	srv := startServer(t, public)

	for _, p := range []string{"/", "/docs/guide/"} {
		r := get(t, srv.URL+p)
		if r.status != http.StatusServiceUnavailable {
			t.Fatalf("GET %s before render: status %d, want 503", p, r.status)
		}
		if !strings.Contains(r.body, "being prepared") || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
			t.Fatalf("GET %s before render: want HTML placeholder, got %q (%s)", p, r.body, r.header.Get("Content-Type"))
		}
		if r.header.Get("Retry-After") == "" {
			t.Errorf("GET %s before render: no Retry-After", p)
		}
	}

	writeSite(t, public, testSite)
	r := get(t, srv.URL+"/")
	if r.status != http.StatusOK || !strings.Contains(r.body, "<h1>Welcome</h1>") {
		t.Fatalf("GET / after render: %d %q, want the site's home page", r.status, r.body)
	}
}

func TestServesSitePaths(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	writeSite(t, public, testSite)
	srv := startServer(t, public)

	r := get(t, srv.URL+"/docs/guide/")
	if r.status != http.StatusOK || !strings.Contains(r.body, "<title>Guide</title>") {
		t.Fatalf("GET /docs/guide/: %d %q", r.status, r.body)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("GET /docs/guide/: Content-Type %q, want text/html", ct)
	}

	r = get(t, srv.URL+"/search/index.json")
	if r.status != http.StatusOK || r.body != testSite["search/index.json"] {
		t.Fatalf("GET /search/index.json: %d %q", r.status, r.body)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("search index Content-Type %q, want application/json", ct)
	}
}

func TestDirectoryWithoutSlashRedirects(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	writeSite(t, public, testSite)
	srv := startServer(t, public)

	r := get(t, srv.URL+"/docs/guide?x=1")
	if r.status != http.StatusMovedPermanently || r.header.Get("Location") != "/docs/guide/?x=1" {
		t.Fatalf("GET /docs/guide: %d Location %q, want 301 to /docs/guide/?x=1", r.status, r.header.Get("Location"))
	}
	// A path that starts with two slashes must not become an off-site,
	// protocol-relative redirect.
	r = rawGet(t, srv, "//docs/guide")
	if loc := r.header.Get("Location"); r.status != http.StatusMovedPermanently || loc != "/docs/guide/" {
		t.Fatalf("GET //docs/guide: %d Location %q, want 301 to /docs/guide/", r.status, loc)
	}
}

func TestFileAskedForAsDirectoryIsNotFound(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	writeSite(t, public, testSite)
	srv := startServer(t, public)
	if r := get(t, srv.URL+"/search/index.json/"); r.status != http.StatusNotFound {
		t.Fatalf("GET /search/index.json/: status %d, want 404", r.status)
	}
}

func TestDirectoryWithoutIndexIsNotFound(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	writeSite(t, public, testSite)
	srv := startServer(t, public)
	r := get(t, srv.URL+"/images/")
	if r.status != http.StatusNotFound || strings.Contains(r.body, "logo.png") {
		t.Fatalf("GET /images/: %d %q, want 404 and no directory listing", r.status, r.body)
	}
}

func TestHeadHasHeadersWithoutBody(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	writeSite(t, public, testSite)
	srv := startServer(t, public)

	for _, enc := range []string{"", "Accept-Encoding: gzip"} {
		r := do(t, http.MethodHead, srv.URL+"/docs/guide/", enc)
		if r.status != http.StatusOK || r.body != "" {
			t.Fatalf("HEAD (%s): %d body %q, want 200 and no body", enc, r.status, r.body)
		}
		if r.header.Get("ETag") == "" || r.header.Get("Content-Length") == "" {
			t.Errorf("HEAD (%s): ETag %q Content-Length %q, want both", enc, r.header.Get("ETag"), r.header.Get("Content-Length"))
		}
	}
}

func TestOtherMethodsAre405(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	writeSite(t, public, testSite)
	srv := startServer(t, public)

	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch, http.MethodOptions} {
		for _, p := range []string{"/", "/docs/guide/", "/health", "/webhooks/github"} {
			r := do(t, m, srv.URL+p)
			if r.status != http.StatusMethodNotAllowed {
				t.Fatalf("%s %s: status %d, want 405", m, p, r.status)
			}
			if r.header.Get("Allow") != "GET, HEAD" || !strings.Contains(r.body, `"code":"method_not_allowed"`) {
				t.Fatalf("%s %s: Allow %q body %q", m, p, r.header.Get("Allow"), r.body)
			}
		}
	}
}

func TestWebhookPathsByGETAreNotFoundUnlessTheSiteHasThem(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	writeSite(t, public, testSite)
	srv := startServer(t, public)

	for _, p := range []string{"/webhooks/github", "/webhooks/gitlab", "/webhooks/forgejo", "/webhook"} {
		r := get(t, srv.URL+p)
		if r.status != http.StatusNotFound || !strings.Contains(r.body, "Page not found") {
			t.Fatalf("GET %s: %d %q, want the 404 page", p, r.status, r.body)
		}
	}

	// A documentation page that happens to live there is served.
	writeSite(t, public, map[string]string{"webhooks/github/index.html": "<h1>Configuring GitHub webhooks</h1>"})
	r := get(t, srv.URL+"/webhooks/github/")
	if r.status != http.StatusOK || !strings.Contains(r.body, "Configuring GitHub webhooks") {
		t.Fatalf("GET /webhooks/github/ with a doc page: %d %q", r.status, r.body)
	}
}

func TestNotFoundServesSite404Page(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	writeSite(t, public, testSite)
	srv := startServer(t, public)

	r := get(t, srv.URL+"/docs/no-such-page/")
	if r.status != http.StatusNotFound || r.body != testSite["404.html"] {
		t.Fatalf("missing page: %d %q, want 404 with the site's 404.html", r.status, r.body)
	}
	if cc := r.header.Get("Cache-Control"); cc != CacheError {
		t.Errorf("404 Cache-Control %q, want %q", cc, CacheError)
	}
}

func TestNotFoundWithoutSitePageIsJSON(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	writeSite(t, public, map[string]string{"index.html": "home"})
	srv := startServer(t, public)

	r := get(t, srv.URL+"/nope")
	if r.status != http.StatusNotFound || !strings.Contains(r.body, `"code":"not_found"`) ||
		r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("missing page without 404.html: %d %s %q", r.status, r.header.Get("Content-Type"), r.body)
	}
}

func TestNewPanicsWithoutPublicDir(t *testing.T) {
	defer func() {
		v := recover()
		if v == nil || !strings.Contains(v.(string), "PublicDir") {
			t.Fatalf("recover() = %v, want a panic naming PublicDir", v)
		}
	}()
	New(Options{})
}

func TestUnreadableSiteDirectoryIs500(t *testing.T) {
	if os.Geteuid() == 0 {
		// root ignores permission bits; use a file where the directory should be
		public := filepath.Join(t.TempDir(), "public")
		if err := os.WriteFile(public, []byte("not a directory"), 0o644); err != nil {
			t.Fatal(err)
		}
		srv := startServer(t, public)
		r := get(t, srv.URL+"/")
		if r.status != http.StatusInternalServerError || !strings.Contains(r.body, `"code":"internal_error"`) {
			t.Fatalf("public is a file: %d %q, want 500 internal_error", r.status, r.body)
		}
		return
	}
	public := filepath.Join(t.TempDir(), "public")
	writeSite(t, public, testSite)
	if err := os.Chmod(public, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(public, 0o755) })
	srv := startServer(t, public)
	r := get(t, srv.URL+"/")
	if r.status != http.StatusInternalServerError {
		t.Fatalf("unreadable public: %d %q, want 500", r.status, r.body)
	}
}
