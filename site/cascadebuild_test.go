package site

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// Issue 27: a folder of fragments whose _index.md cascades
// build: {render: never, list: never} (as Hugo's documentation keeps its
// _common/) is no part of the site: no page, no menu entry, no search
// entry, no term page; yet a page that includes a fragment shows it.
func TestCascadedBuildNeverKeepsFragmentsOutButIncludable(t *testing.T) {
	project := filepath.Join(t.TempDir(), "project")
	for rel, content := range map[string]string{
		"content/alpha/_index.md":                "# Alpha\n\nThe alpha handbook.\n",
		"content/alpha/_shared/_index.md":        "---\ncascade:\n  build:\n    render: never\n    list: never\n    publishResources: false\n---\n\nPieces the handbook's pages include.\n",
		"content/alpha/_shared/parking.md":       "---\ntags: [hidden-tag]\n---\n\nThe bicycle shed holds twelve bicycles.\n",
		"content/alpha/_shared/deeper/lights.md": "---\n---\n\nLamps go off at midnight.\n",
		"content/alpha/_shared/deeper/map.png":   "png",
		"content/alpha/guide/_index.md":          "# Guide\n",
		"content/alpha/guide/arrive.md":          "---\ntitle: Arriving\ntags: [visible-tag]\n---\n\nBefore you come:\n\n{{% include \"/_shared/parking.md\" %}}\n\n{{% include \"_shared/deeper/lights.md\" %}}\n",
		"content/alpha/guide/leave.md":           "# Leaving\n\nTurn around.\n",
		"content/alpha/terms/_index.md":          "---\ntitle: Terms\nbuild:\n  render: always\n  list: always\ncascade:\n  build:\n    render: never\n    list: local\n---\n\nWords we use.\n",
		"content/alpha/terms/sprocket.md":        "---\ntitle: sprocket\n---\n\nA wheel with teeth.\n",
		"content/alpha/guide/own/_index.md":      "---\ntitle: Own\nbuild:\n  list: never\n---\n\nA section that is rendered but not listed.\n",
	} {
		p := filepath.Join(project, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	logs := &bytes.Buffer{}
	opts := Options{
		ProjectDir: project, PublishDir: filepath.Join(t.TempDir(), "public"),
		Generator: fixtureGenerator(), Repositories: []Repository{{Name: "alpha", ContentPath: "alpha"}},
		Logger: zerolog.New(logs),
	}
	res, err := Render(context.Background(), opts)
	if err != nil {
		t.Fatalf("Render: %v\n%s", err, logs)
	}
	for _, is := range res.Issues {
		t.Errorf("unexpected issue %+v", is)
	}

	// Not pages: no HTML under _shared/. Its other files stay published,
	// as every file of the documentation is (an included fragment may
	// show an image beside it).
	_ = filepath.WalkDir(filepath.Join(opts.PublishDir, "docs", "alpha", "_shared"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) != ".png" {
			t.Errorf("published %s", p)
		}
		return nil
	})
	readPublished(t, opts.PublishDir, "docs/alpha/_shared/deeper/map.png")
	// Included: the page shows both fragments, found from the
	// repository's root with or without a leading slash.
	arrive := readPublished(t, opts.PublishDir, "docs/alpha/guide/arrive/index.html")
	for _, want := range []string{"twelve bicycles", "Lamps go off at midnight"} {
		if !strings.Contains(arrive, want) {
			t.Errorf("the including page lacks %q", want)
		}
	}
	if strings.Contains(arrive, "% include") {
		t.Errorf("an include is shown as written:\n%s", between(arrive, "<main", "</main>"))
	}
	// Not listed: no menu entry on any page, no entry in the root's list.
	for _, rel := range []string{"docs/alpha/guide/leave/index.html", "docs/alpha/index.html", "index.html"} {
		if html := readPublished(t, opts.PublishDir, rel); strings.Contains(html, "_shared") || strings.Contains(html, "/guide/own/") {
			t.Errorf("%s links a page that is not listed", rel)
		}
	}
	// Terms listed locally but not rendered (a glossary) are shown on
	// their section's page, not linked, not in the menu.
	terms := readPublished(t, opts.PublishDir, "docs/alpha/terms/index.html")
	if !strings.Contains(terms, "A wheel with teeth.") || strings.Contains(terms, `href=""`) {
		t.Errorf("the terms page does not show its terms in place:\n%s", between(terms, "<main", "</main>"))
	}
	if _, err := os.Stat(filepath.Join(opts.PublishDir, "docs", "alpha", "terms", "sprocket")); !os.IsNotExist(err) {
		t.Errorf("a term not rendered has a page (%v)", err)
	}
	// The section with its own build: list: never is rendered, not listed.
	readPublished(t, opts.PublishDir, "docs/alpha/guide/own/index.html")
	// Not searched, and its terms name no page of it.
	for url, e := range readSearchIndex(t, opts.PublishDir) {
		if strings.Contains(url, "_shared") || strings.Contains(url, "/own/") || strings.Contains(e.Text, "Pieces the handbook") {
			t.Errorf("search entry for a page that is not listed: %+v", e)
		}
	}
	if _, err := os.Stat(filepath.Join(opts.PublishDir, "tags", "hidden-tag")); !os.IsNotExist(err) {
		t.Errorf("a term of a fragment has a page (%v)", err)
	}
	readPublished(t, opts.PublishDir, "tags/visible-tag/index.html")
	// Counted as Hugo lists pages: the root, the guide and its two pages,
	// the terms' page (not the fragments, the terms, nor the section that
	// is not listed).
	if res.Pages != 5 {
		t.Errorf("Pages = %d, want 5 (the fragments are not pages)", res.Pages)
	}
}

// An include never leaves the repository, never includes the page itself
// or a page including it, and shows a path that finds nothing as written;
// every page still renders.
func TestIncludeStaysInsideTheRepositoryAndStopsAtCycles(t *testing.T) {
	inc := func(p string) string { return "---\n---\n\nBefore.\n\n{{% include \"" + p + "\" %}}\n\nAfter.\n" }
	res, tree := renderOneRepository(t, "a", map[string]string{
		"content/a/_index.md": "# A\n",
		"content/a/self.md":   inc("self.md"),
		"content/a/up.md":     inc("../a/_index.md"),
		"content/a/none.md":   inc("/nowhere.md"),
		"content/a/ping.md":   "---\n---\n\nPING-WORDS\n\n{{% include \"pong.md\" %}}\n",
		"content/a/pong.md":   "---\n---\n\nPONG-WORDS\n\n{{% include \"ping.md\" %}}\n",
	})
	if res.Pages != 6 {
		t.Errorf("Pages = %d, want 6", res.Pages)
	}
	for _, page := range []string{"self", "up", "none"} {
		html := tree["docs/a/"+page+"/index.html"]
		if !strings.Contains(html, "<code>{{% include") || !strings.Contains(html, "After.") {
			t.Errorf("%s: the include is not shown as written:\n%s", page, between(html, "<main", "</main>"))
		}
	}
	ping := tree["docs/a/ping/index.html"]
	if !strings.Contains(ping, "PONG-WORDS") || strings.Count(ping, "PING-WORDS") > 2 {
		t.Errorf("ping shows:\n%s", between(ping, "<main", "</main>"))
	}
}
