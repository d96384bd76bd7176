package linkcheck

import (
	"path"
	"strings"
	"testing"
)

// FuzzExtractAndResolve: any page yields its links without an error or a
// panic, each link trimmed, each id once; and every link resolves to a
// target whose internal path stays inside the site. The seed corpus is in
// testdata/fuzz/FuzzExtractAndResolve.
func FuzzExtractAndResolve(f *testing.F) {
	for _, s := range []string{
		`<a href=" guide/ " id=x><img srcset="a.png 1x, b.png 2x"></a><base href="/docs/">`,
		`<link rel="preconnect" href="https://x"><a href="../../../../etc/passwd">`,
		`<a href="http://[::1">bad</a><a name=x id=x>`,
		`<video poster="p.jpg"><source srcset=",,, a.webp"></video>`,
	} {
		f.Add([]byte(s), "https://docs.example.org/")
	}
	f.Fuzz(func(t *testing.T, page []byte, baseURL string) {
		links, err := Extract(page)
		if err != nil {
			t.Fatalf("Extract: %v", err)
		}
		seen := map[string]bool{}
		for _, id := range links.IDs {
			if seen[id] {
				t.Fatalf("id %q listed twice", id)
			}
			seen[id] = true
		}
		r := newResolver(baseURL)
		pg := r.pageURL("docs/repo/guide/index.html")
		for _, l := range links.Links {
			if l.URL != strings.TrimSpace(l.URL) {
				t.Fatalf("link %q not trimmed", l.URL)
			}
			tgt := r.resolve(pg, links.Base, l)
			if tgt.Kind == KindInternal {
				if clean := path.Clean("/" + tgt.Path); strings.HasPrefix(clean, "/..") || (tgt.Path != "" && strings.HasPrefix(tgt.Path, "/")) {
					t.Fatalf("internal path %q of %q leaves the site", tgt.Path, l.URL)
				}
			}
		}
	})
}
