package browsertest

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

func init() {
	documented["github-alerts"] = "style-github-alerts.png"
	documented["hugo-shortcodes"] = "style-hugo-shortcodes.png"
}

// githubAlertsPage is a page written for GitHub, in our own words: its
// five alerts, one with an Obsidian title that folds, a task list and a
// footnote.
const githubAlertsPage = `# Greenhouse

> [!NOTE]
> Vents open by themselves above 25 °C.

> [!TIP]
> Water in the morning.

> [!IMPORTANT]
> Close the door at night.

> [!WARNING]
> The glass gets hot.

> [!CAUTION]
> Never spray the heater.

> [!TIP]- Why morning?
> Leaves dry before the evening.

- [x] Check the vents
- [ ] Sweep the floor

Seedlings need light[^light].

[^light]: About twelve hours a day.
`

// hugoShortcodesPage is a page written for Hugo's own documentation, in
// our own words: version badges, a code-toggle and an unknown shortcode.
const hugoShortcodesPage = `---
title: Irrigation
---
Drip lines {{< new-in 0.150.0 />}} replace the old sprinklers {{< deprecated-in 0.140.0 />}}.

{{< code-toggle file=hugo >}}
[params.irrigation]
interval = "6h"
zones = ["north", "south"]
{{< /code-toggle >}}

{{< new-in 0.151.0 >}}
Zones can be **paused**.
{{< /new-in >}}

Ask the {{< gardener-on-duty >}} before changing a zone.
`

// TestGitHubAlertsAndHugoShortcodesInABrowser: GitHub's alerts are the
// theme's callouts in their own colours, a folded one opens on a click,
// a task list shows its boxes without bullets; Hugo's code-toggle is a
// labelled code block whose text is the configuration as written, and
// the version badges show. axe-core finds nothing serious on either page.
func TestGitHubAlertsAndHugoShortcodesInABrowser(t *testing.T) {
	axe := loadAxe(t)
	publish := renderFixtureWith(t, "", nil, map[string]string{
		"alpha/greenhouse.md": githubAlertsPage,
		"alpha/irrigation.md": hugoShortcodesPage,
	})
	root := serveSite(t, publish, "/")
	ctx := newBrowser(t)
	p := page{t, ctx}
	p.do("set a desktop window", chromedp.EmulateViewport(1100, 900))

	p.open(root + "/docs/alpha/greenhouse/")
	if got := p.eval(`[...document.querySelectorAll('.callout-alert .callout-title')].map(e => e.textContent).join(",")`); got != "Note,Tip,Important,Warning,Caution,Why morning?" {
		t.Errorf("alert titles = %q", got)
	}
	colours := p.eval(`[...document.querySelectorAll('.callout-alert')].map(e => getComputedStyle(e).borderLeftColor).join(" ")`)
	if seen := map[string]bool{}; true {
		for _, c := range strings.Split(colours, " rgb") {
			seen[c] = true
		}
		if len(seen) < 5 {
			t.Errorf("the five alerts share colours: %s", colours)
		}
	}
	if p.eval(`String(document.querySelector('details.callout-alert').open)`) != "false" {
		t.Error("the folded alert starts open")
	}
	p.do("open the folded alert", chromedp.Click(`details.callout-alert summary`))
	if p.eval(`String(document.querySelector('details.callout-alert').open)`) != "true" {
		t.Error("the folded alert did not open")
	}
	if got := p.eval(`getComputedStyle(document.querySelector('li:has(> input[type=checkbox])')).listStyleType`); got != "none" {
		t.Errorf("task list items show bullets: %s", got)
	}
	if p.text(`.footnotes li`) == "" {
		t.Error("no footnote")
	}
	checkAccessibility(ctx, t, axe, "a page of GitHub alerts")
	p.screenshot("github-alerts")

	p.open(root + "/docs/alpha/irrigation/")
	if got := p.text(`.labelled-code figcaption`); got != "hugo.toml" {
		t.Errorf("code-toggle's label = %q", got)
	}
	if got := p.eval(`document.querySelector('.labelled-code pre').innerText`); !strings.Contains(got, `interval = "6h"`) {
		t.Errorf("code-toggle's code is not the configuration as written: %q", got)
	}
	if got := p.eval(`[...document.querySelectorAll('.feature-badge')].map(e => e.textContent).join(",")`); got != "New in v0.150.0,Deprecated in v0.140.0" {
		t.Errorf("badges = %q", got)
	}
	if got := p.text(`.callout .callout-title`); got != "New in v0.151.0" {
		t.Errorf("new-in with content: title %q", got)
	}
	checkAccessibility(ctx, t, axe, "a page of Hugo shortcodes")
	p.screenshot("hugo-shortcodes")
}
