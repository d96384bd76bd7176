package site

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// Real documentation is messy: pages written for other themes and tools,
// front matter Hugo refuses, shortcodes it cannot run. None of it may stop
// the site from rendering; each problem is an issue naming the page.

func TestRenderKeepsGoingPastPagesThatCannotRender(t *testing.T) {
	project := filepath.Join(t.TempDir(), "project")
	writeFiles(t, project, map[string]string{
		"content/r/good.md":      "# Good\n\nAll fine.\n",
		"content/r/unknown.md":   "# Unknown\n\n{{< tabpane >}}Kept text{{< /tabpane >}} and {{% gist x %}}.\n",
		"content/r/frontbad.md":  "---\ntitle: [unclosed\n---\n# From heading\n\nBody.\n",
		"content/r/date.md":      "---\ntitle: Dated\ndate: last tuesday\nurl: /\n---\nBody.\n",
		"content/r/lexbad.md":    "# Lex\n\n{{< highlight \"unterminated\n",
		"content/r/param.md":     "# Param\n\n{{< param nosuch >}}\n",
		"content/r/yt.md":        "# Video\n\n{{< youtube >}}\n",
		"content/r/list.md":      "- starts with a list\n- and {{< tabpane >}}\n",
		"content/r/sub/index.md": "# Sub\n\n{{< param alsomissing >}}\n",
		"content/r/sub/page.md":  "# Sub page\n",
	})
	logs := &bytes.Buffer{}
	opts := fixtureOptions(t, project, logs)
	opts.Repositories = []Repository{{Name: "r", ContentPath: "r"}}
	res, err := Render(context.Background(), opts)
	if err != nil {
		t.Fatalf("Render failed instead of leaving pages out: %v\n%s", err, logs)
	}

	codes := map[string][]string{}
	for _, is := range res.Issues {
		codes[is.Path] = append(codes[is.Path], is.Code)
	}
	want := map[string][]string{
		"r/unknown.md":  {IssueUnknownShortcode, IssueUnknownShortcode},
		"r/frontbad.md": {IssueFrontMatterInvalid},
		"r/date.md":     {IssueFrontMatterInvalid, IssueFrontMatterInvalid},
		"r/lexbad.md":   {IssueShownAsText},
		// A tag Hugo could not read is shown as text: raw syntax to its reader.
		"r/param.md":     {IssueShownAsText, IssueRawSyntax},
		"r/yt.md":        {IssueShownAsText, IssueRawSyntax},
		"r/list.md":      {IssueUnknownShortcode},
		"r/sub/index.md": {IssueShownAsText, IssueRawSyntax},
	}
	for path, wantCodes := range want {
		if strings.Join(codes[path], ",") != strings.Join(wantCodes, ",") {
			t.Errorf("%s: issue codes %v, want %v", path, codes[path], wantCodes)
		}
	}
	if len(codes) != len(want) {
		t.Errorf("issues for %d pages, want %d: %v", len(codes), len(want), res.Issues)
	}
	for _, is := range res.Issues {
		if strings.Contains(is.Message, project) {
			t.Errorf("issue message holds the absolute project path: %v", is)
		}
		if is.Code == IssueShownAsText && is.Path == "r/param.md" &&
			(!strings.Contains(is.Message, `Param "nosuch" not found`) || !strings.Contains(is.Message, "line 3:") || !strings.Contains(is.Message, `{{< param nosuch >}}`)) {
			t.Errorf("the issue does not say which line and tag broke the page, and why: %v", is)
		}
	}

	// Rendered: every page, the ones Hugo could not render as written
	// with what broke them shown as text.
	for page, text := range map[string]string{
		"docs/r/good/index.html":     "All fine.",
		"docs/r/unknown/index.html":  "Kept text",
		"docs/r/frontbad/index.html": "<h1>From heading</h1>",
		"docs/r/date/index.html":     "<h1>Dated</h1>",
		"docs/r/list/index.html":     "<li>starts with a list</li>",
		"docs/r/sub/page/index.html": "<h1>Sub page</h1>",
		"docs/r/sub/index.html":      "{{&lt; param alsomissing &gt;}}",
		"docs/r/param/index.html":    "{{&lt; param nosuch &gt;}}",
		"docs/r/yt/index.html":       "{{&lt; youtube &gt;}}",
		"docs/r/lexbad/index.html":   "&lt; highlight",
	} {
		if html := readPublished(t, opts.PublishDir, page); !strings.Contains(html, text) {
			t.Errorf("%s lacks %q", page, text)
		}
	}
	if home := readPublished(t, opts.PublishDir, "index.html"); strings.Contains(home, "<h1>Dated</h1>") {
		t.Error("front matter url: / replaced the home page")
	}
	if res.Pages != 10 {
		t.Errorf("Result.Pages = %d, want 10 (10 Markdown files, none left out)", res.Pages)
	}
	// The repositories' files are never modified.
	if data, _ := os.ReadFile(filepath.Join(project, "content/r/unknown.md")); !strings.Contains(string(data), "{{< tabpane >}}") {
		t.Error("a repository file was modified")
	}
}

func TestRenderFailsWhenMostPagesCannotRender(t *testing.T) {
	// A theme that breaks on every page: that is not the pages' fault, and
	// leaving them all out would publish an empty site.
	broken := fstest.MapFS{
		"layouts/all.html": {Data: []byte(`{{ with .File }}{{ errorf "cannot use %s" .Filename }}{{ end }}{{ .Title }}`)},
	}
	opts := fixtureOptions(t, newFixtureProject(t), &bytes.Buffer{})
	_, err := render(context.Background(), opts, broken)
	if err == nil {
		t.Fatal("render succeeded with every page failing")
	}
	if !strings.Contains(err.Error(), "pages cannot render") || !strings.Contains(err.Error(), "theme or the configuration") {
		t.Errorf("error does not say most pages failed: %v", err)
	}
}
