package site

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// In a unit's render, a link written as an original site's URL or a
// forge's file page reaches the render hook resolved: to this unit's page,
// to another repository's page as a site URL, or to the original site;
// raw HTML sources too.
func TestLinksAcrossRepositoriesInAUnitRender(t *testing.T) {
	project := filepath.Join(t.TempDir(), "project")
	writeFiles(t, project, map[string]string{
		"content/hb/README.md": strings.Join([]string{
			"# Handbook",
			"",
			"- [rooted old address](/guide/tools/#install)",
			"- [absolute old address](https://handbook.example/guide/tools.md)",
			"- [forge address](https://github.com/acme/handbook/blob/main/docs/tools.md)",
			"- [the engine's page](/guide/engine/cache/)",
			"- [old news](/news/)",
			"",
			`<img src="/guide/engine/diagram.png" alt="diagram">`,
			"",
		}, "\n"),
		"content/hb/tools.md": "# Tools\n\n## Install\n",
	})
	repos := []Repository{
		{Name: "hb", ContentPath: "hb", DocRoots: []string{"docs"}, WebURL: "https://github.com/acme/handbook",
			OriginalSite: &OriginalSite{URL: "https://handbook.example/", Paths: map[string]string{"/guide/": "docs/"}}},
		{Name: "engine", ContentPath: "engine", DocRoots: []string{"docs"},
			OriginalSite: &OriginalSite{URL: "https://handbook.example/", Paths: map[string]string{"/guide/engine/": "docs/"}}},
	}
	publish := filepath.Join(t.TempDir(), "public")
	logs := &bytes.Buffer{}
	if _, err := RenderUnit(context.Background(), UnitOptions{ProjectDir: project, PublishDir: publish,
		Generator: fixtureGenerator(), Repositories: repos, Unit: "hb", Logger: zerolog.New(logs)}); err != nil {
		t.Fatalf("RenderUnit: %v\n%s", err, logs)
	}
	home := publishedTree(t, publish)["docs/hb/index.html"]
	for _, want := range []string{
		`href="/docs/hb/tools/#install">rooted old address`,
		`href="/docs/hb/tools/">absolute old address`,
		`href="/docs/hb/tools/">forge address`,
		`href="/docs/engine/cache/">the engine&rsquo;s page`,
		`href="https://handbook.example/news/">old news`,
		`src="/docs/engine/diagram.png"`,
	} {
		if !strings.Contains(home, want) {
			t.Errorf("home page lacks %s", want)
		}
	}
}
