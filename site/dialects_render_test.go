package site

import (
	"strings"
	"testing"
)

// Issue 28: a Docusaurus page reads as its site shows it: no import lines,
// admonitions with their titles and nested, tabs with their labels and
// group, details, heading ids, and a component only its React code shows
// dropped with an issue.
func TestRenderDocusaurusPage(t *testing.T) {
	res, tree := renderOneRepository(t, "dz", map[string]string{
		"content/dz/guide.md": strings.Join([]string{
			"---", "title: Guide", "---",
			"import Tabs from '@theme/Tabs';",
			"import TabItem from '@theme/TabItem';",
			"",
			"## Getting going {#start-here}",
			"",
			"::::note[Before anything]",
			"Outer words.",
			"",
			":::danger Hot surface",
			"Inner words.",
			":::",
			"::::",
			"",
			"<Tabs groupId=\"pkg\">",
			"<TabItem value=\"yarn\" label=\"Yarn\" default>",
			"",
			"```sh",
			"yarn add kettle",
			"```",
			"",
			"</TabItem>",
			"<TabItem value=\"npm\">",
			"",
			"Use the npm client.",
			"",
			"</TabItem>",
			"</Tabs>",
			"",
			"<details>",
			"<summary>Why a kettle?</summary>",
			"",
			"Because **tea**.",
			"",
			"</details>",
			"",
			"<DocCardList />",
			"",
		}, "\n"),
		// Docusaurus pages are often MDX: a page too, not a file.
		"content/dz/brew.mdx": "---\ntitle: Brew\n---\nimport Tabs from '@theme/Tabs';\n\nSteep **three** minutes.\n",
	})
	if brew := between(tree["docs/dz/brew/index.html"], "<article", "</article>"); !strings.Contains(brew, "<strong>three</strong>") || strings.Contains(brew, "import ") {
		t.Errorf("the .mdx page is not a page of converted Markdown:\n%s", brew)
	}
	if _, published := tree["docs/dz/brew.mdx"]; published {
		t.Error("the .mdx page is published as a file as well")
	}
	page := between(tree["docs/dz/guide/index.html"], "<article", "</article>")
	for _, raw := range []string{"import ", ":::", "&lt;Tabs", "&lt;TabItem", "<TabItem", "DocCardList"} {
		if strings.Contains(page, raw) {
			t.Errorf("page shows %q:\n%s", raw, page)
		}
	}
	for _, want := range []string{`id="start-here"`, ">Before anything<", ">Hot surface<", "Inner words.", ">Yarn<", ">npm<",
		"<details", "Why a kettle?", "<strong>tea</strong>"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q:\n%s", want, page)
		}
	}
	if outer, inner := strings.Index(page, "Outer words."), strings.Index(page, "Inner words."); outer < 0 || inner < outer ||
		strings.Count(page[:inner], `role="note"`) != 2 {
		t.Errorf("the danger callout is not inside the note:\n%s", page)
	}
	found := false
	for _, is := range res.Issues {
		found = found || (is.Code == IssueUnknownShortcode && strings.Contains(is.Message, "DocCardList") && strings.Contains(is.Message, "line 39"))
	}
	if !found {
		t.Errorf("no issue names the dropped component on line 39: %v", res.Issues)
	}
}

// Issue 28: GitBook's blocks render as cards wherever GitBook reads them:
// a hint on one line in a sentence, an embed, a content reference, a file
// to download (published), and an API operation.
func TestRenderGitBookCards(t *testing.T) {
	res, tree := renderOneRepository(t, "gb", map[string]string{
		"content/gb/README.md":      "# Home\n",
		"content/gb/files/plan.pdf": "%PDF-1.4 plan\n",
		"content/gb/tools.md": strings.Join([]string{
			"# Tools",
			"",
			"First, {% hint style=\"warning\" %}unplug the lamp{% endhint %} then open it.",
			"",
			"{% embed url=\"https://video.example.org/watch?v=lamp\" %}",
			"",
			"{% content-ref url=\"README.md\" %}",
			"[Home](README.md)",
			"{% endcontent-ref %}",
			"",
			"{% file src=\"files/plan.pdf\" %}",
			"The wiring plan",
			"{% endfile %}",
			"",
			"{% swagger method=\"delete\" path=\"/lamps/{id}\" baseUrl=\"https://api.example.org\" summary=\"Remove a lamp\" %}",
			"{% swagger-description %}",
			"Takes the lamp away for good.",
			"{% endswagger-description %}",
			"",
			"{% swagger-parameter in=\"path\" name=\"id\" type=\"string\" required=\"true\" %}",
			"The lamp's number",
			"{% endswagger-parameter %}",
			"",
			"{% swagger-response status=\"204: No Content\" description=\"Gone\" %}",
			"{% endswagger-response %}",
			"{% endswagger %}",
			"",
			"{% openapi src=\"https://api.example.org/lamps.yaml\" path=\"/lamps\" method=\"get\" %}",
			"[lamps.yaml](https://api.example.org/lamps.yaml)",
			"{% endopenapi %}",
			"",
		}, "\n"),
	})
	page := between(tree["docs/gb/tools/index.html"], "<article", "</article>")
	if strings.Contains(page, "{%") {
		t.Errorf("page shows a GitBook tag:\n%s", page)
	}
	for _, want := range []string{`class="callout callout-warning"`, "unplug the lamp", `class="link-card link-card-embed"`, "video.example.org",
		`class="link-card link-card-page"`, `class="link-card link-card-file"`, `href="/docs/gb/files/plan.pdf"`, "The wiring plan",
		`api-method-delete">DELETE<`, "/lamps/{id}", "Remove a lamp", "Takes the lamp away for good.", "<code>id</code>", "The lamp&rsquo;s number",
		"204: No Content", `api-method-get">GET<`, `href="https://api.example.org/lamps.yaml"`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q:\n%s", want, page)
		}
	}
	if _, ok := tree["docs/gb/files/plan.pdf"]; !ok {
		t.Error("the file to download is not published")
	}
	found := false
	for _, is := range res.Issues {
		found = found || (is.Code == IssueUnknownShortcode && strings.Contains(is.Message, "lamps.yaml") && strings.Contains(is.Message, "line 28"))
	}
	if !found {
		t.Errorf("no issue says the openapi description on line 28 is not read: %v", res.Issues)
	}
}
