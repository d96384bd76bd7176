package site

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A page written for MkDocs with Material renders as its authors saw it:
// tabs, icons, marks, buttons, annotations, a snippet, task lists and
// footnotes, and none of the source syntax shows outside code.
func TestMaterialPageRendersAsMaterialShowsIt(t *testing.T) {
	res, published := renderOneRepository(t, "mat", map[string]string{
		"content/mat/index.md":        "# Home\n",
		"content/mat/parts/shared.md": "Shared text, written *once*.\n",
		"content/mat/guide.md": `# Guide

## Install {: #get-it }

=== "Debian"

    Run the package manager :material-check:.

=== "Fedora"

    Run the other one.

Later on the page, the same systems:

=== "Debian"

    Second Debian tab.

===+ "Fedora"

    Second Fedora tab.

[Start now](index.md){ .md-button .md-button--primary } and [:fontawesome-brands-github:](https://example.org/code)

A ==marked== word, an ^^inserted^^ one, a ~~deleted~~ one and :smile:.

Read this (1) before the rest.
{ .annotate }

1.  The note behind the marker.

` + "```yaml\nkey: value # (1)!\n```" + `

--8<-- "parts/shared.md"

--8<-- "../outside.md"

- [x] done
- [ ] to do

A claim.[^1]

[^1]: Its source.

:material-no-such-thing:
`,
	})
	page := published["docs/mat/guide/index.html"]
	if page == "" {
		t.Fatalf("guide not published; issues %v", res.Issues)
	}
	article := between(page, "<article>", "</article>")
	text := regexp.MustCompile(`(?s)<pre.*?</pre>|<code.*?</code>`).ReplaceAllString(article, "")
	for _, raw := range []string{`=== "`, ":material-", ":fontawesome-", "--8<--", "{ .", "{:", "==marked", "^^"} {
		if strings.Contains(text, raw) {
			t.Errorf("raw %q shows in the page", raw)
		}
	}
	for _, want := range []string{
		`id="get-it"`,
		`data-label="Debian"`, `data-label="Fedora"`,
		`id="tabs-1-tab-1" aria-controls="tabs-1-panel-1" aria-selected="true"`,
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" class="icon" aria-hidden="true"`,
		`aria-label="github"`,
		`<span class="md-button md-button--primary"><a href=`,
		"<mark>marked</mark>", "<ins>inserted</ins>", "<del>deleted</del>", "😄",
		`<sup class="annotation-marker">1</sup>`, "The note behind the marker.",
		"Shared text, written <em>once</em>.",
		`type="checkbox" checked disabled aria-label="Done"`, `class="footnotes"`,
		`class="icon-unknown" role="img" aria-label="no such thing"`,
	} {
		if !strings.Contains(article, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Count(article, "data-tabs>") != 2 {
		t.Errorf("want two tab groups:\n%s", article)
	}
	codes := map[string]string{}
	for _, is := range res.Issues {
		codes[is.Code] += is.Message + ";"
	}
	if !strings.Contains(codes[IssueIconUnknown], "line 47") || !strings.Contains(codes[IssueSnippetNotIncluded], `"../outside.md"`) || !strings.Contains(codes[IssueSnippetNotIncluded], "line 38") {
		t.Errorf("issues %v, want ICON_UNKNOWN on line 47 and SNIPPET_NOT_INCLUDED naming ../outside.md on line 38", res.Issues)
	}
	golden := filepath.Join("testdata", "golden", "material.html")
	if *update {
		if err := os.WriteFile(golden, []byte(article), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != article {
		t.Errorf("the guide's article differs from %s (run with -update-material after an intended change)\n%s", golden, article)
	}
}
