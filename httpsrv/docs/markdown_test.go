package docs

import (
	"strings"
	"testing"
)

// TestAPageAskedForAsMarkdownIsItsCopy: a page URL requested with an
// Accept header preferring Markdown gets the page's index.md as
// text/markdown; a browser's Accept gets the HTML; both answers say Vary:
// Accept; a page without a copy answers with its HTML.
func TestAPageAskedForAsMarkdownIsItsCopy(t *testing.T) {
	dir := t.TempDir()
	writeSite(t, dir, map[string]string{
		"docs/guide/index.html": "<!DOCTYPE html><title>Guide</title><h1>Guide</h1>",
		"docs/guide/index.md":   "# Guide\n\nRead on.\n",
		"docs/plain/index.html": "<!DOCTYPE html><title>Plain</title>",
	})
	srv := startServer(t, dir)
	browser := "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	cases := []struct {
		path, accept, wantType, wantBody string
	}{
		{"/docs/guide/", "Accept: text/markdown", "text/markdown; charset=utf-8", "# Guide\n\nRead on.\n"},
		{"/docs/guide/", "Accept: text/markdown;q=0.9, text/html;q=0.5", "text/markdown; charset=utf-8", "# Guide"},
		{"/docs/guide/", browser, "text/html; charset=utf-8", "<h1>Guide</h1>"},
		{"/docs/guide/", "Accept: text/html, text/markdown;q=0.5", "text/html; charset=utf-8", "<h1>Guide</h1>"},
		{"/docs/guide/", "", "text/html; charset=utf-8", "<h1>Guide</h1>"},
		{"/docs/plain/", "Accept: text/markdown", "text/html; charset=utf-8", "<title>Plain</title>"},
		{"/docs/guide/index.md", "", "text/markdown; charset=utf-8", "# Guide"},
	}
	for _, c := range cases {
		r := get(t, srv.URL+c.path, c.accept)
		if r.status != 200 || r.header.Get("Content-Type") != c.wantType || !strings.Contains(r.body, c.wantBody) {
			t.Errorf("GET %s with %q: %d %q %q, want 200 %q with %q", c.path, c.accept, r.status, r.header.Get("Content-Type"), r.body, c.wantType, c.wantBody)
		}
		if strings.HasSuffix(c.path, "/") && !strings.Contains(strings.Join(r.header.Values("Vary"), ","), "Accept") {
			t.Errorf("GET %s with %q: Vary %q lacks Accept", c.path, c.accept, r.header.Values("Vary"))
		}
	}
}
