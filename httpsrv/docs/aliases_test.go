package docs

import (
	"net/http"
	"path/filepath"
	"testing"
)

// An old URL of a page (a Hugo redirect page, as the render writes for
// front matter aliases) is answered with a 301 to the page; a page that
// merely looks alike, or points off the site, is served as it is.
func TestRedirectPagesAnswerWithA301(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	site := map[string]string{}
	for k, v := range testSite {
		site[k] = v
	}
	// As Hugo v0.165 writes it.
	site["docs/about/index.html"] = "<!DOCTYPE html>\n<html lang=\"en\">\n\t<head>\n\t\t<title>/docs/guide/</title>\n\t\t<link rel=\"canonical\" href=\"/docs/guide/\">\n\t\t<meta charset=\"utf-8\">\n\t\t<meta http-equiv=\"refresh\" content=\"0; url=/docs/guide/\">\n\t</head>\n</html>\n"
	site["docs/off/index.html"] = `<!DOCTYPE html><html lang="en-us"><head><title>x</title><link rel="canonical" href="//evil.example/"><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=//evil.example/"></head></html>`
	site["docs/odd/index.html"] = `<!DOCTYPE html><html lang="en-us"><head><title>x</title><link rel="canonical" href="/docs/a/"><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=/docs/b/"></head></html>`
	writeSite(t, public, site)
	srv := startServer(t, public)
	if r := get(t, srv.URL+"/docs/about/"); r.status != http.StatusMovedPermanently || r.header.Get("Location") != "/docs/guide/" {
		t.Fatalf("GET /docs/about/: %d Location %q, want 301 to /docs/guide/", r.status, r.header.Get("Location"))
	}
	for _, p := range []string{"/docs/off/", "/docs/odd/", "/docs/guide/"} {
		if r := get(t, srv.URL+p); r.status != http.StatusOK {
			t.Errorf("GET %s: %d, want the file served", p, r.status)
		}
	}
}
