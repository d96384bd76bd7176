package browsertest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site"
)

func init() {
	documented["docusaurus-page"] = "docusaurus.png"
	documented["gitbook-cards"] = "gitbook-cards.png"
}

// dialectPages are a page written for Docusaurus (imports, titled and
// nested admonitions, tabs, details) and one written for GitBook (an
// inline hint, an embed, a content reference, a file, an API operation).
var dialectPages = map[string]string{
	"_index.md": "# Kettles\n\nHow to boil water.\n",
	"boil.md": `---
title: Boil water
---
import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';

## Fill the kettle {#fill}

::::tip[Use fresh water]
Water that stood overnight tastes flat.

:::warning Hot
The handle stays cool; the lid does not.
:::
::::

<Tabs groupId="stove">
<TabItem value="gas" label="Gas stove" default>

Turn the knob to the flame symbol.

</TabItem>
<TabItem value="induction" label="Induction">

Press the ring's button twice.

</TabItem>
</Tabs>

<details>
<summary>Why not the microwave?</summary>

It boils unevenly.

</details>
`,
	"api.md": `# Kettle API

Before calling, {% hint style="info" %}ask for a key{% endhint %} at the desk.

{% embed url="https://video.example.org/watch?v=kettle" %}

{% content-ref url="boil.md" %}
[Boil water](boil.md)
{% endcontent-ref %}

{% file src="manual.pdf" %}
The printed manual
{% endfile %}

{% swagger method="post" path="/kettles/{id}/boil" baseUrl="https://api.example.org" summary="Boil a kettle" %}
{% swagger-description %}
Starts boiling; the kettle stops by itself.
{% endswagger-description %}

{% swagger-parameter in="path" name="id" type="string" required="true" %}
The kettle's number
{% endswagger-parameter %}

{% swagger-parameter in="query" name="temperature" type="integer" %}
Degrees to stop at
{% endswagger-parameter %}

{% swagger-response status="202: Accepted" description="Boiling" %}
` + "```json\n{\"state\": \"boiling\"}\n```" + `
{% endswagger-response %}
{% endswagger %}
`,
	"manual.pdf": "%PDF-1.4 manual\n",
}

// TestDialectsInABrowser: a Docusaurus page's tabs switch with their
// labels, its callouts show their titles, nested; a GitBook page's cards
// show; axe-core finds nothing serious on either.
func TestDialectsInABrowser(t *testing.T) {
	publish := renderRepository(t, "kettles", dialectPages)
	root := serveSite(t, publish, "/")
	axe := loadAxe(t)
	ctx := newBrowser(t)
	p := page{t, ctx}
	p.do("set the window", chromedp.EmulateViewport(1280, 1000))

	p.open(root + "/docs/kettles/boil/")
	if got := p.eval(`Array.from(document.querySelectorAll(".callout-title")).map(x => x.textContent).join("|")`); got != "Use fresh water|Hot" {
		t.Errorf("callout titles %q, want the tip's and the nested warning's", got)
	}
	if got := p.number(`document.querySelectorAll(".callout .callout").length`); got != 1 {
		t.Errorf("%v callouts inside a callout, want the nested warning", got)
	}
	if got := p.eval(`Array.from(document.querySelectorAll("[role=tab]")).map(x => x.textContent).join("|")`); got != "Gas stove|Induction" {
		t.Errorf("tab labels %q", got)
	}
	p.do("choose Induction", chromedp.Click(`[role=tab]:nth-of-type(2)`))
	if got := p.eval(`Array.from(document.querySelectorAll("[role=tabpanel]")).filter(x => !x.hidden).map(x => x.textContent.trim()).join("|")`); !bytes.Contains([]byte(got), []byte("Press the ring")) {
		t.Errorf("after choosing Induction the panel shown reads %q", got)
	}
	if got := p.number(`document.querySelectorAll("details summary").length`); got != 1 {
		t.Errorf("%v details, want one", got)
	}
	if got := p.number(`document.querySelectorAll("#fill").length`); got != 1 {
		t.Error("the heading has no id fill")
	}
	checkAccessibility(ctx, t, axe, "a Docusaurus page")
	p.screenshot("docusaurus-page")

	p.open(root + "/docs/kettles/api/")
	for sel, what := range map[string]string{".callout-info": "the inline hint", ".link-card-embed": "the embed", ".link-card-page a": "the content reference",
		`.link-card-file a[href$="manual.pdf"]`: "the file", ".api-operation .api-parameters": "the operation's parameters", ".api-response pre": "the response's example"} {
		if p.number(`document.querySelectorAll(`+jsString(sel)+`).length`) != 1 {
			t.Errorf("the GitBook page lacks %s (%s)", what, sel)
		}
	}
	checkAccessibility(ctx, t, axe, "a GitBook page with cards")
	p.screenshot("gitbook-cards")
}

// jsString quotes s for a script.
func jsString(s string) string {
	b := []byte{'\''}
	for _, c := range []byte(s) {
		if c == '\'' || c == '\\' {
			b = append(b, '\\')
		}
		b = append(b, c)
	}
	return string(append(b, '\''))
}

// renderRepository renders one repository, name, of the given pages
// (paths below its folder) with the portal's settings, and returns where
// the site is published.
func renderRepository(t *testing.T, name string, pages map[string]string) string {
	t.Helper()
	project := filepath.Join(t.TempDir(), "project")
	for file, text := range pages {
		p := filepath.Join(project, "content", name, file)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	publish := filepath.Join(t.TempDir(), "public")
	logs := &bytes.Buffer{}
	if _, err := site.Render(context.Background(), site.Options{ProjectDir: project, PublishDir: publish,
		Generator:    config.Generator{Title: "Portal", BaseURL: "/"},
		Repositories: []site.Repository{{Name: name, ContentPath: name}}, Logger: zerolog.New(logs)}); err != nil {
		t.Fatalf("render: %v\n%s", err, logs)
	}
	return publish
}
