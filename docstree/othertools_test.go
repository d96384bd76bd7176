package docstree

import (
	"slices"
	"strings"
	"testing"

	"github.com/docweave/docweave/report"
)

// Issue 27: a GitBook space's .bookignore is honoured. What it lists is
// not collected, and the .bookignore is reported once with a count, not
// once per file.
func TestCollectDocsHonoursBookIgnore(t *testing.T) {
	repo := t.TempDir()
	for rel, content := range map[string]string{
		".bookignore":              "# the built book and old notes\n_site/\nold/\nhow-we-publish.md\n*.tmp\n!keep.tmp\n",
		"SUMMARY.md":               "* [Welcome](README.md)\n",
		"README.md":                "# Welcome\n",
		"guide/start.md":           "# Start\n",
		"guide/draft.tmp":          "scratch",
		"guide/keep.tmp":           "kept on purpose",
		"how-we-publish.md":        "# How the book is made\n",
		"_site/index.html":         "<html>built</html>",
		"_site/guide/start.html":   "<html>built</html>",
		"old/notes/first.md":       "# Notes\n",
		"other/old-but-fine.md":    "# Not ignored\n",
		"other/how-we-publish.txt": "not ignored either",
	} {
		write(t, repo, rel, content)
	}
	rels, issues := collectedRels(t, repo, []string{"."}, Policy{})
	want := []string{".bookignore", "README.md", "SUMMARY.md", "guide/keep.tmp", "guide/start.md", "other/how-we-publish.txt", "other/old-but-fine.md"}
	if !slices.Equal(rels, want) {
		t.Errorf("collected\n%q\nwant\n%q", rels, want)
	}
	if len(issues) != 1 || issues[0].Code != report.CodeToolFileIgnored || issues[0].Path != ".bookignore" {
		t.Fatalf("issues %+v, want one TOOL_FILE_IGNORED for .bookignore", issues)
	}
	// .bookignore itself is a dot file the site never publishes; the
	// count is of the entries its patterns matched: 2 in _site/, 1 in
	// old/, how-we-publish.md and draft.tmp.
	if msg := issues[0].Message; !strings.Contains(msg, "5 files in all") || !strings.Contains(msg, "2 whole directories") {
		t.Errorf("message %q, want the count of files and directories left out", msg)
	}
}

// Issue 27: a .bookignore applies to the documentation root it heads,
// relative to it; one further down is an ordinary file.
func TestCollectDocsReadsBookIgnoreAtARootOnly(t *testing.T) {
	repo := t.TempDir()
	write(t, repo, "book/.bookignore", "drafts/\n")
	write(t, repo, "book/drafts/a.md", "# A\n")
	write(t, repo, "book/page.md", "# Page\n")
	write(t, repo, "book/chapter/.bookignore", "*.md\n")
	write(t, repo, "book/chapter/b.md", "# B\n")
	write(t, repo, "notes/c.md", "# C\n")
	rels, issues := collectedRels(t, repo, []string{"book", "notes"}, Policy{})
	want := []string{".bookignore", "c.md", "chapter/.bookignore", "chapter/b.md", "page.md"}
	if !slices.Equal(rels, want) {
		t.Errorf("collected\n%q\nwant\n%q", rels, want)
	}
	if len(issues) != 1 || issues[0].Path != "book/.bookignore" || !strings.Contains(issues[0].Message, "1 file") {
		t.Errorf("issues %+v, want one for book/.bookignore leaving out 1 file", issues)
	}
}

// Issue 27: other tools' theme templates are not documentation: MkDocs'
// custom_dir wherever mkdocs.yml puts it, the conventional overrides/
// of an MkDocs repository and GitBook's _layouts/ at a root are left
// out, one issue per directory. Directories of those names that hold
// Markdown are documentation and stay.
func TestCollectDocsLeavesOutOtherToolsTemplates(t *testing.T) {
	repo := t.TempDir()
	for rel, content := range map[string]string{
		"mkdocs.yml":                       "site_name: S\ntheme:\n  name: material\n  custom_dir: docs/theme-bits\nmarkdown_extensions:\n  - pymdownx.emoji:\n      emoji_index: !!python/name:material.extensions.emoji.twemoji\n",
		"docs/index.md":                    "# Home\n",
		"docs/theme-bits/main.html":        "{% extends 'base.html' %}",
		"docs/theme-bits/partials/x.md":    "a template named .md is still the theme's",
		"docs/overrides/partials/nav.html": "<nav>{{ nav }}</nav>",
		"docs/_layouts/website/page.html":  "{% block body %}{% endblock %}",
		"docs/guide/overrides/config.md":   "# Overriding settings\n",
		"docs/guide/overrides/x.html":      "<p>an example</p>",
		"docs/reference/_layouts/a.md":     "# Page layouts\n",
		"docs/reference/_layouts/b.png":    "png",
	} {
		write(t, repo, rel, content)
	}
	rels, issues := collectedRels(t, repo, []string{"docs"}, Policy{})
	want := []string{".docweave-repo/mkdocs.yml", "guide/overrides/config.md", "guide/overrides/x.html", "index.md", "reference/_layouts/a.md", "reference/_layouts/b.png"}
	if !slices.Equal(rels, want) {
		t.Errorf("collected\n%q\nwant\n%q", rels, want)
	}
	var left []string
	for _, is := range issues {
		if is.Code != report.CodeToolFileIgnored {
			t.Errorf("unexpected issue %+v", is)
			continue
		}
		left = append(left, is.Path)
	}
	slices.Sort(left)
	if wantLeft := []string{"docs/_layouts", "docs/overrides", "docs/theme-bits"}; !slices.Equal(left, wantLeft) {
		t.Errorf("reported %q, want %q", left, wantLeft)
	}
}

// Without mkdocs.yml, a root's overrides/ is documentation like any
// other directory, even without Markdown.
func TestCollectDocsKeepsOverridesWithoutMkDocs(t *testing.T) {
	repo := t.TempDir()
	write(t, repo, "docs/index.md", "# Home\n")
	write(t, repo, "docs/overrides/sample.json", "{}")
	rels, issues := collectedRels(t, repo, []string{"docs"}, Policy{})
	if want := []string{"index.md", "overrides/sample.json"}; !slices.Equal(rels, want) || len(issues) != 0 {
		t.Errorf("collected %q with issues %+v, want %q and none", rels, issues, want)
	}
}
