package site

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// A page Hugo cannot render as written is rendered with what broke it shown
// as text, keeps its URL, title and menu entry, and the warning names the
// line in the file as written, whatever its front matter became in the
// checked copy.
func TestRenderShowsWhatBrokeAPageAsText(t *testing.T) {
	res, opts := renderRepositoryR(t, map[string]string{
		"content/r/kettle.md": "---\ntitle: Kettle care\nweight: 2\ndate: not a date\n---\n\n# Kettle care\n\nDescale monthly.\n\nVolume: {{< param kettleVolume >}} litres.\n\nKeep the lid shut.\n",
		"content/r/cups.md":   "---\ntitle: Cups\nweight: 1\n---\nCups, with {{< param cupSize >}} and {{< youtube >}}\non the same line.\n",
		"content/r/other.md":  "# Other\n",
	})
	shown := map[string]string{}
	for _, is := range res.Issues {
		if is.Code == IssuePageRenderFailed {
			t.Errorf("a page was left out: %v", is)
		}
		if is.Code == IssueShownAsText {
			shown[is.Path] = is.Message
		}
	}
	if msg := shown["r/kettle.md"]; !strings.HasPrefix(msg, "line 11: shortcode tag \"{{< param kettleVolume >}}\" is shown as text") ||
		!strings.Contains(msg, `Param "kettleVolume" not found`) {
		t.Errorf("kettle warning = %q, want line 11 (of the file), the tag and Hugo's reason", msg)
	}
	if msg := shown["r/cups.md"]; !strings.HasPrefix(msg, "line 5: shortcode tag \"{{< param cupSize >}} {{< youtube >}}\"") {
		t.Errorf("cups warning = %q, want both tags of line 5", msg)
	}
	if res.Pages != 3 {
		t.Errorf("Result.Pages = %d, want 3", res.Pages)
	}
	kettle := readPublished(t, opts.PublishDir, "docs/r/kettle/index.html")
	for _, want := range []string{"<title>Kettle care", "Descale monthly.", "Volume: {{&lt; param kettleVolume &gt;}} litres.", "Keep the lid shut."} {
		if !strings.Contains(kettle, want) {
			t.Errorf("kettle page lacks %q", want)
		}
	}
	// The menu of another page still lists both, in their order.
	other := readPublished(t, opts.PublishDir, "docs/r/other/index.html")
	cups, kettleAt := strings.Index(other, `href="/docs/r/cups/"`), strings.Index(other, `href="/docs/r/kettle/"`)
	if cups < 0 || kettleAt < 0 || cups > kettleAt {
		t.Errorf("menu entries of the pages shown with text: cups at %d, kettle at %d", cups, kettleAt)
	}
}

// The two pages real documentation lost: a GitBook hint with its text on
// the tags' lines, and an MkDocs admonition on a page's first line. Both
// render, as callouts, without a warning.
func TestRenderKeepsPagesWhoseConversionsTouchTheirEdges(t *testing.T) {
	res, opts := renderRepositoryR(t, map[string]string{
		"content/r/hint.md":  "# Trains\n\n{% hint style=\"info\" %}Trains run every ten minutes,\nmore often at peak times.{% endhint %}\n\nBuy a ticket first.\n",
		"content/r/first.md": "!!! note\n    Platforms are numbered from the west.\n\n# Stations\n\nSee the map.\n",
	})
	if len(res.Issues) != 0 || res.Pages != 2 {
		t.Errorf("pages %d, issues %v; want both pages, no issue", res.Pages, res.Issues)
	}
	for page, wants := range map[string][]string{
		"docs/r/hint/index.html":  {"Trains run every ten minutes,\nmore often at peak times.", "Buy a ticket first."},
		"docs/r/first/index.html": {"Platforms are numbered from the west.", "<h1>Stations</h1>"},
	} {
		html := readPublished(t, opts.PublishDir, page)
		for _, want := range wants {
			if !strings.Contains(html, want) {
				t.Errorf("%s lacks %q", page, want)
			}
		}
		if !strings.Contains(html, `class="callout`) || strings.Contains(html, "{{") || strings.Contains(html, "{%") {
			t.Errorf("%s does not show its block as a callout:\n%s", page, html)
		}
	}
}

// renderRepositoryR renders files (paths relative to the project) as the
// site of one repository, r.
func renderRepositoryR(t *testing.T, files map[string]string) (Result, Options) {
	t.Helper()
	project := filepath.Join(t.TempDir(), "project")
	writeFiles(t, project, files)
	logs := &bytes.Buffer{}
	opts := fixtureOptions(t, project, logs)
	opts.Repositories = []Repository{{Name: "r", ContentPath: "r"}}
	res, err := Render(context.Background(), opts)
	if err != nil {
		t.Fatalf("Render: %v\n%s", err, logs)
	}
	return res, opts
}
