package docs

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// previewServer serves an empty live site and one preview, "pr-0123456789",
// whose site has a page, a search index and a redirect map.
func previewServer(t *testing.T) http.Handler {
	t.Helper()
	dir := t.TempDir()
	live, site := filepath.Join(dir, "public"), filepath.Join(dir, "preview")
	files := map[string]string{
		"docs/a/index.html": `<!DOCTYPE html><html><head><meta name="docweave-search-index" content="/search/index.json"><link rel="stylesheet" href="/css/site.css"></head>` +
			`<body class="page"><a href="/docs/b/">b</a> <a href="//cdn.example.com/x.js">cdn</a> <a href='/docs/c/'>c</a> <a href="https://example.com/">out</a> <a href="../b/">rel</a></body></html>`,
		"search/index.json": `[{"url":"/docs/a/","title":"A"}]`,
		"css/site.css":      `body{color:red}`,
		"404.html":          `<html><body><a href="/">home</a></body></html>`,
		RedirectsFile:       "/old/ /docs/a/ 301\n",
	}
	for name, body := range files {
		p := filepath.Join(site, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(live, 0o755); err != nil {
		t.Fatal(err)
	}
	return New(Options{PublicDir: live, Log: zerolog.Nop(), Previews: func(id string) (PreviewSite, bool) {
		if id != "pr-0123456789" {
			return PreviewSite{}, false
		}
		return PreviewSite{Dir: site, Repository: "alpha<x>", Ref: "feature/b", Commit: "0123456789abcdef0123", Title: "pull request #4"}, true
	}})
}

func serve(h http.Handler, path string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// A preview's page keeps its links inside the preview, carries the
// banner after the body tag and noindex, and is never compressed or
// answered from validators.
func TestAPreviewPageLinksInsideThePreview(t *testing.T) {
	h := previewServer(t)
	rec := serve(h, "/previews/pr-0123456789/docs/a/", "Accept-Encoding", "gzip")
	body := rec.Body.String()
	if rec.Code != 200 || rec.Header().Get("X-Robots-Tag") != "noindex, nofollow" || rec.Header().Get("Content-Encoding") != "" || rec.Header().Get("ETag") != "" {
		t.Fatalf("status %d, headers %v", rec.Code, rec.Header())
	}
	for _, want := range []string{
		`content="/previews/pr-0123456789/search/index.json"`, `href="/previews/pr-0123456789/css/site.css"`,
		`href="/previews/pr-0123456789/docs/b/"`, `href='/previews/pr-0123456789/docs/c/'`,
		`href="//cdn.example.com/x.js"`, `href="https://example.com/"`, `href="../b/"`,
		`<body class="page"><div class="dw-preview-banner" role="note"`, `alpha&lt;x&gt; at <code`, `feature/b</code>`, `0123456789ab</code>`, `(pull request #4)`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s:\n%s", want, body)
		}
	}
	if got := rec.Header().Get("Content-Length"); got != "" && got != strconv.Itoa(len(body)) {
		t.Errorf("Content-Length %s for %d bytes", got, len(body))
	}
}

// The search index's URLs, redirects and the not-found page stay inside
// the preview; other files pass unchanged; an unknown preview is 404.
func TestAPreviewsOtherAnswersStayInside(t *testing.T) {
	h := previewServer(t)
	if rec := serve(h, "/previews/pr-0123456789/search/index.json"); !strings.Contains(rec.Body.String(), `"url":"/previews/pr-0123456789/docs/a/"`) {
		t.Errorf("search index: %s", rec.Body.String())
	}
	if rec := serve(h, "/previews/pr-0123456789/css/site.css"); rec.Body.String() != `body{color:red}` {
		t.Errorf("style sheet: %q", rec.Body.String())
	}
	if rec := serve(h, "/previews/pr-0123456789/old/"); rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "/previews/pr-0123456789/docs/a/" {
		t.Errorf("redirect: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	if rec := serve(h, "/previews/pr-0123456789/docs/a"); rec.Code/100 != 3 || !strings.HasPrefix(rec.Header().Get("Location"), "/previews/pr-0123456789/docs/a/") {
		t.Errorf("directory redirect: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	if rec := serve(h, "/previews/pr-0123456789/nothing/"); rec.Code != 404 || !strings.Contains(rec.Body.String(), `href="/previews/pr-0123456789/"`) || rec.Header().Get("X-Robots-Tag") == "" {
		t.Errorf("not found: %d %s", rec.Code, rec.Body.String())
	}
	if rec := serve(h, "/previews/pr-0123456789"); rec.Code/100 != 3 {
		t.Errorf("the preview without its slash: %d", rec.Code)
	}
	head := httptest.NewRequest(http.MethodHead, "/previews/pr-0123456789/docs/a/", nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, head)
	if rec.Code != 200 || rec.Body.Len() != 0 || rec.Header().Get("Content-Length") != "" || rec.Header().Get("X-Robots-Tag") == "" {
		t.Errorf("HEAD: %d, %d bytes, Content-Length %q", rec.Code, rec.Body.Len(), rec.Header().Get("Content-Length"))
	}
	if rec := serve(h, "/previews/other-0123456789/docs/a/"); rec.Code != 404 || rec.Header().Get("X-Robots-Tag") == "" {
		t.Errorf("unknown preview: %d", rec.Code)
	}
}
