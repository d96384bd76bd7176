package site

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// hostilePage is Markdown whose raw HTML and links would run script if
// passed through, beside raw HTML documentation legitimately uses.
const hostilePage = `---
title: Hostile
---
# Hostile

<details><summary>More</summary>kept</details>

<script>alert("script tag")</script>

Inline <img src="x.png" onerror="alert('handler')"> image.

[click](javascript:alert('link'))
`

// renderOneRepoUnit renders a site of one repository, "docs" holding
// hostilePage, trusted or not, and returns the page's HTML.
func renderOneRepoUnit(t *testing.T, untrusted bool) string {
	t.Helper()
	project := filepath.Join(t.TempDir(), "project")
	page := filepath.Join(project, "content", "docs", "hostile.md")
	if err := os.MkdirAll(filepath.Dir(page), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, []byte(hostilePage), 0o644); err != nil {
		t.Fatal(err)
	}
	publish := filepath.Join(t.TempDir(), "public")
	repos := []Repository{{Name: "docs", ContentPath: "docs", Untrusted: untrusted}}
	if _, err := RenderUnit(context.Background(), UnitOptions{ProjectDir: project, PublishDir: publish,
		Generator: fixtureGenerator(), Repositories: repos, Unit: "docs", Logger: zerolog.Nop()}); err != nil {
		t.Fatal(err)
	}
	return readPublished(t, publish, "docs/docs/hostile/index.html")
}

// Issue 16: the raw HTML of an untrusted repository's pages is sanitized
// in the unit's own render; a trusted repository's is published as written.
func TestUntrustedRepositoryPagesAreSanitized(t *testing.T) {
	untrusted := renderOneRepoUnit(t, true)
	main := between(untrusted, "<main", "</main>")
	for _, active := range []string{"<script", "onerror", `href="javascript:`} {
		if strings.Contains(main, active) {
			t.Errorf("untrusted page keeps %q:\n%s", active, main)
		}
	}
	for _, kept := range []string{"<details>", "x.png", "click"} {
		if !strings.Contains(main, kept) {
			t.Errorf("untrusted page lost %q, which is safe:\n%s", kept, main)
		}
	}

	trusted := between(renderOneRepoUnit(t, false), "<main", "</main>")
	for _, asWritten := range []string{"<script", "onerror"} {
		if !strings.Contains(trusted, asWritten) {
			t.Errorf("trusted page lost %q, which its authors wrote:\n%s", asWritten, trusted)
		}
	}
}

// Marking a repository untrusted changes its pages, so it changes the
// address of its units: a stored render of the trusted repository is not
// reused.
func TestUnitAddressCoversTrust(t *testing.T) {
	g := fixtureGenerator()
	trusted := UnitAddress(g, []Repository{{Name: "docs", ContentPath: "docs"}}, "docs", "tree")
	untrusted := UnitAddress(g, []Repository{{Name: "docs", ContentPath: "docs", Untrusted: true}}, "docs", "tree")
	if trusted == untrusted {
		t.Fatal("the address of a unit is the same trusted and untrusted")
	}
}
