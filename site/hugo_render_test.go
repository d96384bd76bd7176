package site

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenderContentWrittenForAnotherHugoSite: the shortcodes of another
// Hugo site's theme never lose what they hold. A configuration in
// code-toggle is a code block in its language under its file name,
// copyable as written; another paired shortcode's content is a code block
// labelled with its name; new-in is a badge alone and a callout with
// content; any other tag is inline code of what was written; include
// brings in a fragment of the same repository that is no page itself,
// readfile a file of it as code, and one naming no file of the
// repository is reported with its line and shown as written.
func TestRenderContentWrittenForAnotherHugoSite(t *testing.T) {
	res, published := renderOneRepository(t, "loom", map[string]string{
		"content/loom/_index.md": "---\ntitle: Loom\n---\nWeaving notes.\n",
		"content/loom/setup.md": `---
title: Setup
---
Warp first {{< new-in 1.4.0 />}} and weft later {{< deprecated-in 2.10 >}}.

{{< code-toggle file=loom >}}
[shuttle]
speed = "slow"
{{< /code-toggle >}}

{{< pattern rows=4 >}}
over, under, {{< hint >}}over{{< /hint >}}
{{< /pattern >}}

{{< new-in 1.5.0 >}}
Heddles can be **swapped**.
{{< /new-in >}}

Ask the {{< guild-contact >}} for yarn.

{{< swatch
  colour="indigo"
  fibre=wool
>}}

{{% include "/_parts/tension.md" %}}

{{% include "_parts/bobbin" %}}

{{% include "/_parts/missing.md" %}}

{{< readfile file="examples/warp.yaml" >}}

{{< readfile "../../secrets.txt" >}}
`,
		"content/loom/_parts/bobbin.md":   "Wind the bobbin {{% include \"/_parts/tension.md\" %}}\n",
		"content/loom/examples/warp.yaml": "threads: 240\n",
		"content/loom/_parts/_index.md":   "---\ncascade:\n  build:\n    render: never\n    list: never\n---\n",
		"content/loom/_parts/tension.md":  "Keep the tension even.\n",
	})
	page := published["docs/loom/setup/index.html"]
	body := between(page, `<div class="body">`, "</article>")
	for _, want := range []string{
		`<span class="feature-badge feature-new">New in v1.4.0</span>`,
		`<span class="feature-badge feature-deprecated">Deprecated in v2.10</span>`,
		"<figure class=\"titled-code labelled-code\"><figcaption>loom.toml</figcaption>",
		`<span class="nx">speed</span>`, // highlighted as TOML, straight quotes kept
		`&#34;slow&#34;`,
		"<figcaption>pattern</figcaption>",
		"over, under, {{&lt; hint &gt;}}over{{&lt; /hint &gt;}}",
		"<div class=\"callout callout-info\" role=\"note\">\n<p class=\"callout-title\">New in v1.5.0</p>\n<p>Heddles can be <strong>swapped</strong>.</p>",
		"Ask the <code>{{&lt; guild-contact &gt;}}</code> for yarn.",
		"<p>Keep the tension even.</p>",
		// An include found from the root without its extension, nested.
		"<p>Wind the bobbin Keep the tension even.</p>",
		"<code>{{% include &quot;/_parts/missing.md&quot; %}}</code>",
		"<figcaption>warp.yaml</figcaption>",
		`<span class="nt">threads</span>`,
		"<code>{{&lt; readfile &quot;../../secrets.txt&quot; &gt;}}</code>",
		// A tag on lines of its own: a code block of what was written.
		"<figcaption>swatch</figcaption>",
		"{{&lt; swatch\n</span></span><span class=\"line\"><span class=\"cl\">  colour=&#34;indigo&#34;",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "“") {
		t.Errorf("curly quotes in the page: code became prose:\n%s", body)
	}
	var unknown, unresolved []string
	for _, is := range res.Issues {
		switch is.Code {
		case IssueUnknownShortcode:
			unknown = append(unknown, is.Message)
		case IssueIncludeUnresolved:
			unresolved = append(unresolved, is.Path+": "+is.Message)
		}
	}
	if len(unresolved) != 2 || !strings.Contains(unresolved[0], `loom/setup.md: line 30: include "/_parts/missing.md" names no file`) ||
		!strings.Contains(unresolved[1], `line 34: readfile "../../secrets.txt" names no file`) {
		t.Errorf("INCLUDE_UNRESOLVED issues = %q, want the missing include and the readfile out of the repository", unresolved)
	}
	if len(unknown) != 4 {
		t.Errorf("UNKNOWN_SHORTCODE issues = %q, want code-toggle, pattern, guild-contact and swatch", unknown)
	}
}

// A readfile tag naming another repository's file from the project's
// root, as the theme's shortcode reads paths, is shown as the tag: a page
// includes files of its own repository only.
func TestReadfileStaysInsideItsRepository(t *testing.T) {
	project := filepath.Join(t.TempDir(), "project")
	writeFiles(t, project, map[string]string{
		"content/loom/setup.md":  "# Setup\n\n{{< readfile file=\"content/other/note.txt\" >}}\n\n{{< readfile file=\"own.txt\" >}}\n",
		"content/loom/own.txt":   "a note of its own\n",
		"content/other/page.md":  "# Other\n",
		"content/other/note.txt": "a note of another repository\n",
	})
	opts := fixtureOptions(t, project, &bytes.Buffer{})
	opts.Repositories = []Repository{{Name: "loom", ContentPath: "loom"}, {Name: "other", ContentPath: "other"}}
	if _, err := Render(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	page := readPublished(t, opts.PublishDir, "docs/loom/setup/index.html")
	if strings.Contains(page, "a note of another repository") || !strings.Contains(page, "a note of its own") {
		t.Errorf("the page includes another repository's file, or not its own:\n%s", between(page, `<div class="body">`, "</article>"))
	}
}
