package docs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkServePageWithRedirectMap is BenchmarkServePageHandler on a site
// that ships a redirect map of 2,000 lines, as a site with many aliases and
// moved pages does: what the map costs a page that is not redirected.
func BenchmarkServePageWithRedirectMap(b *testing.B) {
	public := filepath.Join(b.TempDir(), "public")
	writeSite(b, public, testSite)
	var m strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&m, "/docs/old/page%04d/ /docs/guide/ 301\n", i)
	}
	if err := os.WriteFile(filepath.Join(public, RedirectsFile), []byte(m.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	benchmarkHandler(b, public)
}
