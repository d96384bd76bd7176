package pages

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docweave/docweave/site/internal/model"
)

// The Markdown handed to Hugo carries each link's and image's URL on the
// site, wherever the destination is written (inline, in angle brackets,
// with a title, in a reference definition, in raw HTML, inside a
// shortcode's Markdown), since the theme has no render hook to map it;
// code keeps its text, and a URL that could run script leads nowhere.
func TestPreparedPagesCarryFinalURLs(t *testing.T) {
	files := map[string]string{
		"r/README.md": "---\ntitle: Home\n---\n\n" +
			"See [the setup](guide/setup.md#step-2 \"Setting up\"), [notes](<My Notes.md>) and [short][s].\n\n" +
			"![a chart](img/chart.png) and <img width=\"40\" src=\"img/chart.png\">\n\n" +
			"`[in code](guide/setup.md)` and [gone](missing.md) and [danger](javascript:alert(1)).\n\n" +
			"```md\n[in a block](guide/setup.md)\n```\n\n" +
			"{{< download >}}[the plan](files/plan.pdf){{< /download >}}\n\n" +
			"[s]: slugged.md\n",
		"r/guide/setup.md": "# Setup\n",
		"r/My Notes.md":    "# Notes\n",
		"r/slugged.md":     "---\nslug: short\n---\n# Slugged\n",
	}
	content := t.TempDir()
	writeTree(t, content, files)
	pagesDir := t.TempDir()
	tree := Tree{Dirs: []string{"r", "r/guide", "r/img", "r/files"}, Markdown: []string{"r/My Notes.md", "r/README.md", "r/guide/setup.md", "r/slugged.md"},
		Files: []string{"r/img/chart.png", "r/files/plan.pdf"}}
	theme := fstest.MapFS{"layouts/_shortcodes/download.html": {Data: []byte("{{ .Inner }}")}}
	p, err := Prepare(content, pagesDir, tree, []model.Repository{{Name: "r", ContentPath: "r"}}, "/site/", theme)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Rewritten["r/README.md"] {
		t.Fatalf("the page was handed to Hugo as written")
	}
	got, err := os.ReadFile(filepath.Join(pagesDir, "r", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := "---\ntitle: Home\n---\n\n" +
		"See [the setup](/site/docs/r/guide/setup/#step-2 \"Setting up\"), [notes](</site/docs/r/My-Notes/>) and [short][s].\n\n" +
		"![a chart](/site/docs/r/img/chart.png) and <img width=\"40\" src=\"/site/docs/r/img/chart.png\">\n\n" +
		"`[in code](guide/setup.md)` and [gone](/site/docs/r/missing.md) and [danger](#ZgotmplZ).\n\n" +
		"```md\n[in a block](guide/setup.md)\n```\n\n" +
		"{{< download >}}[the plan](/site/docs/r/files/plan.pdf){{< /download >}}\n\n" +
		"[s]: /site/docs/r/short/\n"
	if string(got) != want {
		t.Errorf("prepared page:\n%s\nwant:\n%s", got, want)
	}
	var lines []string
	for _, is := range p.Issues {
		lines = append(lines, is.Message)
	}
	if s := strings.Join(lines, "\n"); !strings.Contains(s, `line 9: link "missing.md"`) {
		t.Errorf("the link that names nothing is not reported on its line of the file:\n%s", s)
	}
}

// A link's issue names its line in the file as written, even when a
// dialect added or removed lines above it.
func TestLinkIssuesNameTheLineAsWritten(t *testing.T) {
	content := t.TempDir()
	page := "---\ntitle: Notes\n---\n\n!!! note \"Remember\"\n    Water the beds.\n\n    And the pots.\n\nSee [gone](missing.md).\n\n" +
		"```mdx-code-block\nignored\n```\n\nThen [also gone](missing-too.md).\n"
	if err := os.MkdirAll(filepath.Join(content, "r"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(content, "r", "notes.md"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	tree := Tree{Dirs: []string{"r"}, Markdown: []string{"r/notes.md"}}
	p, err := Prepare(content, t.TempDir(), tree, []model.Repository{{Name: "r", ContentPath: "r"}}, "/", fstest.MapFS{})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Rewritten["r/notes.md"] {
		t.Fatal("the admonition was not converted")
	}
	var got []string
	for _, is := range p.Issues {
		got = append(got, is.Message)
	}
	s := strings.Join(got, "\n")
	for _, want := range []string{`line 10: link "missing.md"`, `line 16: link "missing-too.md"`} {
		if !strings.Contains(s, want) {
			t.Errorf("issues lack %q:\n%s", want, s)
		}
	}
}

// A footnote's links are rewritten like any other (its indented text is
// no code block), and a page file named as a folder with a page of its
// own ("tools.md" for tools/README.md) leads to the folder, as Hugo's
// page lookup took it, though it is reported.
func TestFootnoteLinksAndFolderPagesGetTheirURLs(t *testing.T) {
	content := t.TempDir()
	files := map[string]string{
		"r/notes.md":        "# Notes\n\nSee the shed.[^1]\n\n[^1]:\n    The [tools] live there, and [the shed](tools.md#rack).\n\n    [tools]: shed/rake.md\n",
		"r/shed/rake.md":    "# Rake\n",
		"r/tools/README.md": "# Tools\n",
	}
	writeTree(t, content, files)
	pagesDir := t.TempDir()
	tree := Tree{Dirs: []string{"r", "r/shed", "r/tools"}, Markdown: []string{"r/notes.md", "r/shed/rake.md", "r/tools/README.md"}}
	if _, err := Prepare(content, pagesDir, tree, []model.Repository{{Name: "r", ContentPath: "r"}}, "/", fstest.MapFS{}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(pagesDir, "r", "notes.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := "# Notes\n\nSee the shed.[^1]\n\n[^1]:\n    The [tools] live there, and [the shed](/docs/r/tools/#rack).\n\n    [tools]: /docs/r/shed/rake/\n"
	if string(got) != want {
		t.Errorf("prepared page:\n%s\nwant:\n%s", got, want)
	}
}

// writeTree writes files (slash paths → text) below dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
