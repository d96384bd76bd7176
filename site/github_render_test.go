package site

import (
	"strings"
	"testing"
)

// gitHubPage is a page written for GitHub: its five alerts (one in lower
// case, one inside a list), an Obsidian alert with a title that folds, a
// task list, footnotes, and headings whose ids GitHub derives, with links
// to them.
const gitHubPage = `# Kettle care

> [!NOTE]
> Descale once a month.

> [!tip]
> Vinegar works.

> [!IMPORTANT]
> Unplug it first.

> [!WARNING]
> The base is not waterproof.

- In a list:

  > [!CAUTION]
  > Boiling water scalds.

> [!NOTE]- Why descale at all?
> Scale slows the heating.

> A plain quote stays a quote.

- [x] Empty the kettle
- [ ] Rinse twice

Hard water[^hard] leaves scale.

[^hard]: Water with much calcium.

## Set up, then run!

See [the second usage](#usage-1) and [the setup](#set-up-then-run).

## Usage

## Usage
`

// TestRenderGitHubMarkdownAsGitHubShowsIt: alerts are callouts with
// GitHub's labels (not quotes starting "[!NOTE]"), task lists show boxes,
// footnotes link both ways, and heading ids are GitHub's, so #fragment
// links written for GitHub lead to their heading.
func TestRenderGitHubMarkdownAsGitHubShowsIt(t *testing.T) {
	res, published := renderOneRepository(t, "kettle", map[string]string{
		"content/kettle/README.md": gitHubPage,
	})
	page := published["docs/kettle/index.html"]
	body := between(page, `<div class="body">`, "</article>")
	for _, want := range []string{
		"<div class=\"callout callout-info callout-alert alert-note\" role=\"note\">\n<p class=\"callout-title\">Note</p>\n<p>Descale once a month.</p>",
		"<div class=\"callout callout-tip callout-alert alert-tip\" role=\"note\">\n<p class=\"callout-title\">Tip</p>\n<p>Vinegar works.</p>",
		"<div class=\"callout callout-important callout-alert alert-important\" role=\"note\">\n<p class=\"callout-title\">Important</p>",
		"<div class=\"callout callout-warning callout-alert alert-warning\" role=\"note\">\n<p class=\"callout-title\">Warning</p>",
		"<div class=\"callout callout-danger callout-alert alert-caution\" role=\"note\">\n<p class=\"callout-title\">Caution</p>\n<p>Boiling water scalds.</p>",
		"<details class=\"callout callout-info callout-alert alert-note\">\n<summary class=\"callout-title\">Why descale at all?</summary>\n<p>Scale slows the heating.</p>",
		"<blockquote>\n<p>A plain quote stays a quote.</p>\n</blockquote>",
		`<li><input type="checkbox" checked disabled aria-label="Done"> Empty the kettle</li>`,
		`<li><input type="checkbox" disabled aria-label="To do"> Rinse twice</li>`,
		`<sup id="fnref:1"><a href="#fn:1" class="footnote-ref" role="doc-noteref">1</a></sup>`,
		`<li id="fn:1">`,
		`<h2 id="set-up-then-run">Set up, then run!</h2>`,
		`<h2 id="usage">Usage</h2>`,
		`<h2 id="usage-1">Usage</h2>`,
		`href="#usage-1"`,
		`href="#set-up-then-run"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "[!") {
		t.Errorf("an alert marker is left in the page:\n%s", body)
	}
	if len(res.Issues) != 0 {
		t.Errorf("issues = %v, want none", res.Issues)
	}
}
