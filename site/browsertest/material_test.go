package browsertest

import (
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

func init() { documented["material-page"] = "material.png" }

// materialPages are two pages written for MkDocs with Material: tab
// groups in two languages (twice on the first page), one of operating
// systems, icons, marks, a button, an annotation and a task list.
var materialPages = map[string]string{
	"_index.md": "# Tools\n\nThe tools' guides.\n",
	"install.md": `# Install

## Get the client :material-download:

=== "Go"

    Add the module with the go tool.

=== "Python"

    Add the package with pip.

It runs on:

=== "Linux"

    Every distribution has it.

===+ "macOS"

    Use the package manager you like.

Then the same choice again:

=== "Go"

    Import it and call Open.

=== "Python"

    Import it and call open.

[Read the guide](use.md){ .md-button .md-button--primary } [:octicons-mark-github-16:](https://example.org/tools)

A ==highlighted== term, an ^^added^^ one and a ~~removed~~ one :rocket:.

The client reads its settings (1) at start.
{ .annotate }

1.  From the file named by the first argument.

- [x] installed
- [ ] configured
`,
	"use.md": `# Use

=== "Go"

    Call the client's Run.

=== "Python"

    Call the client's run.
`,
}

// TestMaterialTabsFollowTheReader: on a Material page, choosing a tab
// switches every group with the same labels (and only those), the choice
// holds on the next page, axe-core finds nothing serious, and without
// scripts every tab's content shows.
func TestMaterialTabsFollowTheReader(t *testing.T) {
	publish := renderRepository(t, "tools", materialPages)
	root := serveSite(t, publish, "/")
	axe := loadAxe(t)
	ctx := newBrowser(t)
	p := page{t, ctx}
	p.do("set the window", chromedp.EmulateViewport(1280, 1000))
	p.open(root + "/docs/tools/install/")

	selected := `Array.from(document.querySelectorAll("[data-tabs]")).map(b => b.querySelector("[aria-selected=true]").dataset.label + ":" +
		Array.from(b.querySelectorAll("[role=tabpanel]")).filter(x => !x.hidden).length).join(",")`
	if got := p.eval(selected); got != "Go:1,macOS:1,Go:1" {
		t.Fatalf("tabs at first: %s, want the first of each group (macOS, which ===+ selects, of the systems), one panel shown", got)
	}
	p.do("choose Python", chromedp.Click(`#tabs-0-tab-1`))
	if got := p.eval(selected); got != "Python:1,macOS:1,Python:1" {
		t.Errorf("after choosing Python: %s, want both language groups on Python, the other group unchanged", got)
	}
	checkAccessibility(ctx, t, axe, "a Material page with tabs")
	p.screenshot("material-page")

	p.open(root + "/docs/tools/use/")
	if got := p.eval(selected); got != "Python:1" {
		t.Errorf("on the next page: %s, want the remembered Python", got)
	}

	if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	p.do("open the page without scripts", chromedp.Navigate(root+"/docs/tools/install/"), chromedp.WaitVisible(`.tab-panel`))
	if got := p.number(`Array.from(document.querySelectorAll(".tab-panel")).filter(x => x.offsetParent !== null).length`); got != 6 {
		t.Errorf("without scripts %v tab panels show, want all 6", got)
	}
}
