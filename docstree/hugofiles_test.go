package docstree

import (
	"slices"
	"strings"
	"testing"

	"github.com/docweave/docweave/report"
)

// Issue 15: nothing in a repository runs, and nothing in it configures the
// site. A documentation root that is a Hugo site keeps its pages and
// static files; its configuration, templates, data and assets are left
// out, each reported once; a content adapter is left out wherever it is.
func TestCollectDocsLeavesOutWhatHugoWouldRunOrReadAsConfiguration(t *testing.T) {
	repo := t.TempDir()
	for rel, content := range map[string]string{
		// docs/ is a Hugo site.
		"docs/hugo.toml":                        "baseURL = 'https://example.org/'\n",
		"docs/go.mod":                           "module example.org/docs\n",
		"docs/package.json":                     "{}\n",
		"docs/layouts/_partials/x.html":         "{{ os.ReadFile \"/etc/passwd\" }}",
		"docs/layouts/page.html":                "<html>",
		"docs/archetypes/default.md":            "---\ntitle: {{ .Name }}\n---\n",
		"docs/data/versions.yaml":               "v: 1\n",
		"docs/i18n/en.toml":                     "x = 'y'\n",
		"docs/assets/main.scss":                 "body{}",
		"docs/themes/t/theme.toml":              "name = 't'\n",
		"docs/static/logo.png":                  "png",
		"docs/content/_index.md":                "# Home\n",
		"docs/content/guide/page.md":            "# Page\n",
		"docs/content/guide/_content.gotmpl":    "{{ partial \"nosuch.html\" . }}",
		"docs/content/guide/snippet.GoTmpl":     "{{ now }}",
		"docs/content/guide/data/model.md":      "# Data model\n",
		"docs/content/guide/config.yaml":        "an: example\n",
		"docs/content/guide/assets/diagram.png": "png",
		// guides/ is ordinary documentation: these names mean nothing there.
		"guides/layouts/grid.md": "# Grid layouts\n",
		"guides/data/index.md":   "# Data\n",
		"guides/assets/shot.png": "png",
		"guides/package.json":    "{}\n",
		"guides/_content.gotmpl": "{{ now }}",
	} {
		write(t, repo, rel, content)
	}
	rels, issues := collectedRels(t, repo, []string{"docs", "guides"}, Policy{})
	want := []string{
		"assets/shot.png", "content/_index.md", "content/guide/assets/diagram.png",
		"content/guide/config.yaml", "content/guide/data/model.md",
		"content/guide/page.md", "data/index.md", "layouts/grid.md", "package.json", "static/logo.png",
	}
	if !slices.Equal(rels, want) {
		t.Errorf("collected\n%q\nwant\n%q", rels, want)
	}
	var left []string
	for _, is := range issues {
		if is.Code != report.CodeHugoFileIgnored {
			t.Errorf("unexpected issue %+v", is)
			continue
		}
		left = append(left, is.Path)
	}
	slices.Sort(left)
	wantLeft := []string{
		"docs/archetypes", "docs/assets", "docs/content/guide/_content.gotmpl", "docs/content/guide/snippet.GoTmpl",
		"docs/data", "docs/go.mod", "docs/hugo.toml", "docs/i18n", "docs/layouts", "docs/package.json", "docs/themes",
		"guides/_content.gotmpl",
	}
	if !slices.Equal(left, wantLeft) {
		t.Errorf("reported\n%q\nwant each once:\n%q", left, wantLeft)
	}
	layouts := issueAt(t, issues, report.CodeHugoFileIgnored, "docs/layouts")
	if !strings.Contains(layouts.Message, "2 files") || !strings.Contains(layouts.Message, "Hugo project at docs") {
		t.Errorf("layouts issue %q should count its files and name the project", layouts.Message)
	}
	adapter := issueAt(t, issues, report.CodeHugoFileIgnored, "guides/_content.gotmpl")
	if !strings.Contains(adapter.Message, "content adapter") {
		t.Errorf("adapter issue %q should say what the file is", adapter.Message)
	}
}

func TestHugoProjectRootNeedsHugosOwnMarkers(t *testing.T) {
	for name, files := range map[string]map[string]bool{
		"hugo.yaml":                                  {"hugo.yaml": true},
		"theme.toml":                                 {"theme.toml": true},
		"config.toml beside content and themes":      {"config.toml": true, "content/a.md": true, "themes/t/theme.toml": true},
		"config.toml beside content":                 {"config.toml": false, "content/a.md": false},
		"config/_default beside content and layouts": {"config/_default/hugo.toml": true, "layouts/x.html": true, "content/a.md": true},
		"config.yaml beside layouts":                 {"config.yaml": false, "layouts/x.md": false},
		"config.yaml alone":                          {"config.yaml": false},
		"layouts alone":                              {"layouts/x.html": false},
		"config.json beside data":                    {"config.json": false, "data/x.json": false},
	} {
		dir := t.TempDir()
		want := false
		for rel, root := range files {
			write(t, dir, rel, "x")
			want = want || root
		}
		if got := isHugoProjectRoot(dir); got != want {
			t.Errorf("%s: isHugoProjectRoot = %v, want %v", name, got, want)
		}
	}
}
