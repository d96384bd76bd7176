package site

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// Issue 15: nothing in a repository runs. The clone stage leaves content
// adapters out of every repository (docstree); a tree that still holds
// one — stored before that gate — renders without it: the adapter, which
// calls a partial the theme lacks and would fail the render if Hugo ran
// it, is neither run nor published, and a page cannot pick a theme
// template meant for other pages.
func TestUnitRenderNeverRunsAContentAdapterOrATemplateAPageNames(t *testing.T) {
	project := filepath.Join(t.TempDir(), "project")
	files := map[string]string{
		"content/docs/guide/_content.gotmpl": `{{ partial "nosuch.html" . }}{{ .AddPage (dict "path" "injected" "title" "Injected") }}`,
		"content/docs/guide/_CONTENT.GOTMPL": `{{ .AddPage (dict "path" "shouting" "title" "Shouting") }}`,
		"content/docs/guide/page.md":         "---\ntitle: Page\nlayout: version-redirect\n---\n# Page\n\nBody text.\n",
		"content/docs/index.md":              "# Docs\n",
	}
	writeFiles(t, project, files)
	publish := filepath.Join(t.TempDir(), "public")
	logs := &bytes.Buffer{}
	res, err := RenderUnit(context.Background(), UnitOptions{ProjectDir: project, PublishDir: publish,
		Generator: fixtureGenerator(), Repositories: []Repository{{Name: "docs", ContentPath: "docs"}}, Unit: "docs",
		Logger: zerolog.New(logs)})
	if err != nil {
		t.Fatalf("RenderUnit: %v\n%s", err, logs)
	}
	tree := publishedTree(t, publish)
	for rel := range tree {
		if strings.Contains(strings.ToLower(rel), "gotmpl") || strings.Contains(rel, "injected") || strings.Contains(rel, "shouting") {
			t.Errorf("published %s: the content adapter was mounted or run", rel)
		}
	}
	page, ok := tree["docs/docs/guide/page/index.html"]
	if !ok {
		t.Fatalf("page not rendered; published %d files", len(tree))
	}
	if strings.Contains(page, `http-equiv="refresh"`) || !strings.Contains(page, "Body text.") {
		t.Errorf("the page was rendered with the template its front matter named:\n%s", page)
	}
	if res.Pages != 2 {
		t.Errorf("pages = %d, want 2 (index and page)", res.Pages)
	}
}
