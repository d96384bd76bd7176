package site

import (
	"strings"
	"testing"
)

// A GitBook space's .gitbook.yaml names its table of contents (which then
// orders the menu and is no page) and redirects old URL paths to pages,
// inside the repository's namespace.
func TestGitBookYAMLStructureAndRedirects(t *testing.T) {
	_, tree := renderOneRepository(t, "gb", map[string]string{
		"content/gb/README.md":                    "# Welcome\n",
		"content/gb/TOC.md":                       "# Contents\n\n* [Welcome](README.md)\n* [Zebra first](zebra.md)\n* [Apple last](apple.md)\n",
		"content/gb/apple.md":                     "# Apple\n",
		"content/gb/zebra.md":                     "# Zebra\n",
		"content/gb/.docweave-repo/.gitbook.yaml": "structure:\n  summary: TOC.md\nredirects:\n  old/zebra: ./zebra.md\n  gone: missing.md\n",
	})
	if _, ok := tree["docs/gb/toc/index.html"]; ok {
		t.Error("the table of contents .gitbook.yaml names was rendered as a page")
	}
	menu := between(tree["docs/gb/index.html"], `<nav id="dw-menu"`, "</nav>")
	if z, a := strings.Index(menu, ">Zebra first<"), strings.Index(menu, ">Apple last<"); z < 0 || a < 0 || z > a {
		t.Errorf("menu not in TOC.md's order:\n%s", menu)
	}
	redirect, ok := tree["docs/gb/old/zebra/index.html"]
	if !ok || !strings.Contains(redirect, `/docs/gb/zebra/`) {
		t.Errorf("no redirect page from /docs/gb/old/zebra/ to the zebra page (%v):\n%s", ok, redirect)
	}
	if _, ok := tree["docs/gb/gone/index.html"]; ok {
		t.Error("a redirect to a page that does not exist was written")
	}
}

// A .gitbook.yaml that is not YAML is reported once and used for nothing.
func TestUnreadableGitBookYAMLIsReported(t *testing.T) {
	res, tree := renderOneRepository(t, "gb", map[string]string{
		"content/gb/README.md":                    "# Welcome\n",
		"content/gb/a.md":                         "# A\n",
		"content/gb/.docweave-repo/.gitbook.yaml": "redirects:\n  old: a.md\n  - broken\n",
	})
	n := 0
	for _, is := range res.Issues {
		if is.Code == IssueToolConfigInvalid && is.Path == "gb/.docweave-repo/.gitbook.yaml" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("issues %v, want one %s for .gitbook.yaml", res.Issues, IssueToolConfigInvalid)
	}
	if _, ok := tree["docs/gb/old/index.html"]; ok {
		t.Error("a redirect of an unreadable .gitbook.yaml was made")
	}
}
