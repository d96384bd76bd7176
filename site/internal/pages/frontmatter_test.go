package pages

import (
	"strings"
	"testing"
	"time"
)

func TestCheckFrontMatterKeepsUsableKeys(t *testing.T) {
	fm := map[string]any{
		"title": "T", "tags": []any{"a"}, "date": time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC),
		"lastmod": "2024-03-04", "slug": "short", "markup": "md", "weight": "heavy",
		"build": map[string]any{"list": "never"}, "menu": "main",
	}
	got, changed, problems := checkFrontMatter(fm)
	if changed || len(problems) > 0 || len(got) != len(fm) {
		t.Errorf("changed=%v problems=%v got=%v, want fm unchanged", changed, problems, got)
	}
}

func TestCheckFrontMatterDropsKeysThatBreakOrMovePages(t *testing.T) {
	fm := map[string]any{
		"title":      "T",
		"Date":       "someday",
		"expiryDate": "never",
		"url":        "/",
		"aliases":    []any{"/old"},
		"cascade":    map[string]any{"url": "/x"},
		"slug":       "../../escape",
		"markup":     "asciidoc",
		"outputs":    []any{"nosuch"},
		"layout":     "version-redirect",
		"Type":       "post",
		"sites":      map[string]any{"matrix": map[string]any{"languages": []any{"fr"}}},
		"build":      "1.2.3",
	}
	got, changed, problems := checkFrontMatter(fm)
	if !changed {
		t.Fatal("changed = false")
	}
	if len(got) != 1 || got["title"] != "T" {
		t.Errorf("kept %v, want only the title", got)
	}
	all := strings.Join(problems, "\n")
	for _, key := range []string{"Date", "expiryDate", "cascade", "slug", "markup", "sites", "build"} {
		if !strings.Contains(all, key) {
			t.Errorf("no problem names %s:\n%s", key, all)
		}
	}
	for _, key := range []string{"outputs", "layout", "Type"} {
		if strings.Contains(all, key) {
			t.Errorf("%s is the theme's business and dropped silently:\n%s", key, all)
		}
	}
	// url and aliases leave the front matter without a problem: they
	// become redirects in the repository's namespace (aliases.go).
	for _, key := range []string{"url", "aliases"} {
		if strings.Contains(all, key+" ") {
			t.Errorf("%s reported:\n%s", key, all)
		}
	}
	if len(fm) != 13 {
		t.Error("checkFrontMatter modified its argument")
	}
}

func TestCheckFrontMatterReadsJekyllPublishedAsDraft(t *testing.T) {
	got, changed, problems := checkFrontMatter(map[string]any{"title": "T", "published": false})
	if !changed || got["draft"] != true || got["published"] != nil || len(problems) != 0 {
		t.Errorf("published: false → %v (changed %v, problems %v), want draft: true", got, changed, problems)
	}
	got, _, _ = checkFrontMatter(map[string]any{"published": true})
	if len(got) != 0 {
		t.Errorf("published: true → %v, want the key dropped", got)
	}
	got, changed, _ = checkFrontMatter(map[string]any{"published": "2024-01-01"})
	if changed || got["published"] != "2024-01-01" {
		t.Errorf("a published date was dropped: %v", got)
	}
}

// Docusaurus' sidebar_position and sidebar_label order and name the menu
// as weight and linkTitle do; a page's own weight and linkTitle win.
func TestCheckFrontMatterReadsDocusaurusSidebarKeys(t *testing.T) {
	got, _, problems := checkFrontMatter(map[string]any{"title": "T", "sidebar_position": 2, "sidebar_label": "Short"})
	if got["weight"] != 2001 || got["linkTitle"] != "Short" || len(problems) != 0 {
		t.Errorf("got %v, problems %v", got, problems)
	}
	got, _, _ = checkFrontMatter(map[string]any{"sidebar_position": 0.5, "weight": 7, "linkTitle": "Mine", "sidebar_label": "Theirs"})
	if got["weight"] != 7 || got["linkTitle"] != "Mine" {
		t.Errorf("the page's own weight and linkTitle were replaced: %v", got)
	}
	if got, _, _ := checkFrontMatter(map[string]any{"sidebar_position": 0}); got["weight"] != 1 {
		t.Errorf("position 0 → weight %v, want 1 (0 is no weight to Hugo)", got["weight"])
	}
}
