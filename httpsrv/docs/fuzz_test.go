package docs

import (
	"path"
	"strings"
	"testing"
)

// FuzzSiteName: every request path maps to "." or a clean relative name
// without ".." — the name os.Root opens inside the site. The seed corpus
// is in testdata/fuzz/FuzzSiteName.
func FuzzSiteName(f *testing.F) {
	for _, s := range []string{"/", "/docs/a/", "/../../etc/passwd", "//x//y/..", "a\\..\\b", "/%2e%2e/", "/.git/config", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, urlPath string) {
		name := siteName(urlPath)
		if name == "." {
			return
		}
		if name == "" || strings.HasPrefix(name, "/") || path.Clean(name) != name {
			t.Fatalf("siteName(%q) = %q is not a clean relative name", urlPath, name)
		}
		for _, part := range strings.Split(name, "/") {
			if part == ".." {
				t.Fatalf("siteName(%q) = %q climbs out of the site", urlPath, name)
			}
		}
	})
}
