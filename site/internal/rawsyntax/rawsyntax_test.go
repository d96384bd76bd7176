package rawsyntax

import (
	"strings"
	"testing"
)

func kinds(t *testing.T, page string) string {
	t.Helper()
	found, err := Scan(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range found {
		out = append(out, f.Kind+"="+f.Example)
	}
	return strings.Join(out, "\n")
}

func TestScanFindsEachKindInTextOnly(t *testing.T) {
	page := `<html><body><nav>{{< menu-label >}}</nav><main>
<p>Since {{&lt; new-in 0.12 &gt;}} the option works.</p>
<p>{% hint style="info" %}Kept as written.</p>
<blockquote><p>[!NOTE]<br>Read this first.</p></blockquote>
<p>=== “Python”</p>
<p>!!! warning “Careful”</p>
<p>:::tip Speed</p>
<p>Press :material-check: to save.</p>
<p>import Tabs from ‘@theme/Tabs’;</p>
<p>–8&lt;– “shared/intro.md”</p>
<pre><code>{{< in-code >}} [!TIP] === "x" :octicons-x-16:</code></pre>
<p>Inline <code>{% raw %}</code> is an example, and so is <kbd>:::</kbd>.</p>
<p>A paired {{% steps %}} is one shortcode, not a Liquid tag.</p>
</main></body></html>`
	want := strings.Join([]string{
		`shortcode=Since {{< new-in 0.12 >}} the option works.`,
		`liquid={% hint style="info" %}Kept as written.`,
		`alert=[!NOTE]`,
		`tab==== “Python”`,
		`admonition=!!! warning “Careful”`,
		`icon=Press :material-check: to save.`,
		`mdx=import Tabs from ‘@theme/Tabs’;`,
		`snippet=–8<– “shared/intro.md”`,
	}, "\n")
	if got := kinds(t, page); got != want {
		t.Errorf("found:\n%s\nwant:\n%s", got, want)
	}
}

func TestScanReadsTheWholePageWithoutMainAndNothingInCleanText(t *testing.T) {
	if got := kinds(t, `<p>An alert: [!WARNING] shown raw.</p>`); got != `alert=An alert: [!WARNING] shown raw.` {
		t.Errorf("found %q", got)
	}
	clean := `<main><h1>Install</h1><p>Use {x} and a: b, 3 === 3, an email a@b.c, :smile, 50% {width}.</p>` +
		`<table><tr><td>!!!</td><td>=== ok</td></tr></table></main>`
	if got := kinds(t, clean); got != "" {
		t.Errorf("clean page: found %q", got)
	}
}

// Every example of a kind holds one of the triggers that let a page be
// parsed at all: a page is never skipped for holding only unlisted syntax.
func TestEveryKindHasATrigger(t *testing.T) {
	for _, example := range []string{"{{&lt; x &gt;}}", "{% hint %}", "[!NOTE]", "=== “A”", "!!! note", "??? tip", ":::tip",
		":material-check:", ":octicons-x-16:", ":fontawesome-brands-x:", ":simple-x:", "import X from ‘y’;", "&lt;Tabs&gt;", "–8&lt;–"} {
		if !mayShow([]byte("<main><p>" + example + "</p></main>")) {
			t.Errorf("no trigger in %q", example)
		}
		if found, _ := Scan(strings.NewReader("<main><p>" + example + "</p></main>")); len(found) == 0 {
			t.Errorf("Scan finds nothing in %q", example)
		}
	}
	if mayShow([]byte(`<script>if(v==="auto"){}</script><main><p>Plain text, <code>code</code>.</p></main>`)) {
		t.Error("a plain page is parsed")
	}
}
