package docs

import (
	"maps"
	"net/http"
	"path/filepath"
	"testing"
)

// withFiles is testSite with files added.
func withFiles(files map[string]string) map[string]string {
	site := maps.Clone(testSite)
	maps.Copy(site, files)
	return site
}

// hugoRedirectPage is a redirect page as Hugo v0.165 writes it.
const hugoRedirectPage = "<!DOCTYPE html>\n<html lang=\"en\">\n\t<head>\n\t\t<title>/docs/guide/</title>\n\t\t<link rel=\"canonical\" href=\"/docs/guide/\">\n\t\t<meta charset=\"utf-8\">\n\t\t<meta http-equiv=\"refresh\" content=\"0; url=/docs/guide/\">\n\t</head>\n</html>\n"

// Issue 15: the docs server answers a 301 from the redirect map that
// ships with the site, the query kept, whether or not a redirect page is
// at the old URL; lines leading off the site are ignored, and the map
// itself is not served.
func TestTheRedirectMapAnswersWithA301(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	writeSite(t, public, withFiles(map[string]string{
		RedirectsFile: "# comment\n/docs/about/ /docs/guide/ 301\n/docs/old.html /docs/guide/ 301\n" +
			"/docs/moved/ /docs/guide/ 301\n/docs/off/ //evil.example/ 301\n/docs/far/ https://evil.example/ 301\n/docs/temp/ /docs/guide/ 302\n",
		"docs/about/index.html": hugoRedirectPage,
		"docs/off/index.html":   "<!DOCTYPE html><title>Off</title>",
	}))
	srv := startServer(t, public)
	for path, want := range map[string]string{
		"/docs/about/":           "/docs/guide/",
		"/docs/about":            "/docs/guide/",
		"/docs/about/index.html": "/docs/guide/",
		"/docs/about/?q=x&p=2":   "/docs/guide/?q=x&p=2",
		"/docs/old.html":         "/docs/guide/",
		"/docs/moved/":           "/docs/guide/",
	} {
		r := get(t, srv.URL+path)
		if r.status != http.StatusMovedPermanently || r.header.Get("Location") != want {
			t.Errorf("GET %s: %d Location %q, want 301 to %s", path, r.status, r.header.Get("Location"), want)
		}
	}
	if r := get(t, srv.URL+"/docs/off/"); r.status != http.StatusOK {
		t.Errorf("GET /docs/off/: %d, want the file served (its line leads off the site)", r.status)
	}
	for _, p := range []string{"/docs/far/", "/docs/temp/", "/" + RedirectsFile} {
		if r := get(t, srv.URL+p); r.status != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, r.status)
		}
	}
}

// The map is the one of the site served: a swapped-in site brings its own.
func TestTheRedirectMapChangesWithTheSite(t *testing.T) {
	dir := t.TempDir()
	public := filepath.Join(dir, "public")
	writeSite(t, public, withFiles(map[string]string{RedirectsFile: "/docs/a/ /docs/guide/ 301\n"}))
	srv := startServer(t, public)
	if r := get(t, srv.URL+"/docs/a/"); r.status != http.StatusMovedPermanently {
		t.Fatalf("GET /docs/a/ on the first site: %d, want 301", r.status)
	}
	staging := filepath.Join(dir, "staging")
	writeSite(t, staging, withFiles(map[string]string{RedirectsFile: "/docs/b/ /docs/guide/ 301\n"}))
	swapLikeRender(t, staging, public)
	if r := get(t, srv.URL+"/docs/a/"); r.status != http.StatusNotFound {
		t.Errorf("GET /docs/a/ on the second site: %d, want 404", r.status)
	}
	if r := get(t, srv.URL+"/docs/b/"); r.status != http.StatusMovedPermanently || r.header.Get("Location") != "/docs/guide/" {
		t.Errorf("GET /docs/b/ on the second site: %d %q, want 301 to /docs/guide/", r.status, r.header.Get("Location"))
	}
}
