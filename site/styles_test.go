package site

import (
	"strings"
	"testing"
)

// Issue 15: documentation written for MkDocs and Docusaurus looks right:
// their admonitions are the theme's callouts (a collapsible one a details
// block), and Docusaurus' sidebar_position and sidebar_label order and
// name the menu.
func TestMkDocsAndDocusaurusPagesRender(t *testing.T) {
	res, tree := renderOneRepository(t, "ds", map[string]string{
		"content/ds/_index.md": "# Docs\n",
		"content/ds/zeta.md":   "---\ntitle: Zeta page\nsidebar_position: 1\nsidebar_label: Getting started\n---\n:::tip[Faster builds]\nCache the **modules**.\n:::\n",
		"content/ds/alpha.md":  "---\ntitle: Alpha page\nsidebar_position: 2\nsidebar_label: Concepts\n---\nText.\n",
		"content/ds/mkdocs.md": "# MkDocs page\n\n!!! warning \"Back up first\"\n    Copy the `data` directory.\n\n??? note \"More\"\n    Hidden detail.\n",
	})
	if len(res.Issues) != 0 {
		t.Errorf("issues: %v", res.Issues)
	}
	zeta := tree["docs/ds/zeta/index.html"]
	if !strings.Contains(zeta, `class="callout callout-tip"`) || !strings.Contains(zeta, "Faster builds") || !strings.Contains(zeta, "<strong>modules</strong>") {
		t.Errorf("Docusaurus tip not a callout:\n%s", between(zeta, "<article", "</article>"))
	}
	mk := tree["docs/ds/mkdocs/index.html"]
	if !strings.Contains(mk, `class="callout callout-warning"`) || !strings.Contains(mk, "Back up first") || !strings.Contains(mk, "<code>data</code>") {
		t.Errorf("MkDocs warning not a callout:\n%s", between(mk, "<article", "</article>"))
	}
	if !strings.Contains(mk, "<summary>More</summary>") || !strings.Contains(mk, "Hidden detail.") {
		t.Errorf("MkDocs ??? block not a details block:\n%s", between(mk, "<article", "</article>"))
	}
	home := tree["docs/ds/index.html"]
	first, second := strings.Index(home, ">Getting started<"), strings.Index(home, ">Concepts<")
	if first < 0 || second < 0 || first > second {
		t.Errorf("menu not in sidebar_position order with sidebar_label names (Getting started at %d, Concepts at %d):\n%s", first, second, between(home, "<nav", "</nav>"))
	}
}

// A GitBook space's SUMMARY.md gives the order and the titles of its
// sidebar, and is not a page itself.
func TestGitBookSummaryOrdersTheMenu(t *testing.T) {
	_, tree := renderOneRepository(t, "gb", map[string]string{
		"content/gb/README.md":      "# Welcome\n",
		"content/gb/SUMMARY.md":     "# Table of contents\n\n* [Welcome](README.md)\n* [Zero to running](start.md)\n* [Operating](ops/README.md)\n  * [Backups](ops/backups.md)\n  * [Alerts](<ops/alerts.md>)\n* [Appendix](appendix.md)\n",
		"content/gb/appendix.md":    "# Appendix\n",
		"content/gb/start.md":       "# Quick start\n",
		"content/gb/ops/README.md":  "# Operations\n",
		"content/gb/ops/backups.md": "# Backing up\n",
		"content/gb/ops/alerts.md":  "# Alerting\n",
	})
	if _, ok := tree["docs/gb/summary/index.html"]; ok {
		t.Error("SUMMARY.md was rendered as a page")
	}
	// Seen from a page of ops/, the menu opens that directory.
	home := between(tree["docs/gb/ops/backups/index.html"], `<nav id="dw-menu"`, "</nav>")
	last := -1
	for _, title := range []string{">Zero to running<", ">Operating<", ">Backups<", ">Appendix<"} {
		i := strings.Index(home, title)
		if i < 0 || i < last {
			t.Errorf("menu lacks %s in SUMMARY.md's order:\n%s", title, home)
		}
		last = i
	}
}
