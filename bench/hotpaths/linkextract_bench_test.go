package hotpaths

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docweave/docweave/bench"
	"github.com/docweave/docweave/linkcheck"
)

// renderedPage renders one farm repository with docweave's theme and
// returns the HTML of one of its pages: the input link extraction sees.
func renderedPage(tb testing.TB) []byte {
	tb.Helper()
	dir := docsTree(tb, 4)
	project := filepath.Join(tb.TempDir(), "project")
	if err := os.MkdirAll(filepath.Join(project, "content"), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.Rename(dir, filepath.Join(project, "content", "repo00")); err != nil {
		tb.Fatal(err)
	}
	publish := filepath.Join(tb.TempDir(), "public")
	if _, err := bench.RenderFloor(context.Background(), project, publish, "hot paths", []string{"repo00=repo00"}, false, nil); err != nil {
		tb.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(publish, "docs", "repo00", "reference", "page001", "index.html"))
	if err != nil {
		tb.Fatal(err)
	}
	return page
}

func TestLinkExtractionFixture(t *testing.T) {
	links, err := linkcheck.Extract(renderedPage(t))
	if err != nil {
		t.Fatal(err)
	}
	var external, images int
	for _, l := range links.Links {
		if strings.HasPrefix(l.URL, "https://example.com/") {
			external++
		}
		if strings.HasPrefix(l.Element, "img") {
			images++
		}
	}
	if external < 3 || images < 2 || len(links.IDs) == 0 {
		t.Fatalf("rendered page gave %d external links, %d images, %d ids: %+v", external, images, len(links.IDs), links)
	}
}

// BenchmarkLinkExtractPage extracts the links and ids of one rendered page
// of docweave's theme (menu, search, content), as verification does for
// every page whose content it has not seen before.
func BenchmarkLinkExtractPage(b *testing.B) {
	page := renderedPage(b)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := linkcheck.Extract(page); err != nil {
			b.Fatal(err)
		}
	}
}
