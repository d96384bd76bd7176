package site

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

func TestCopyStaticPublishesThemeAndDocumentFiles(t *testing.T) {
	project := filepath.Join(t.TempDir(), "project")
	writeFiles(t, project, map[string]string{
		"content/r/page.md":        "# Page",
		"content/r/files/spec.pdf": "%PDF",
		"content/r/.github/ci.yml": "on: push",
		"content/r/.gitignore":     "*.tmp",
	})
	tree := fstest.MapFS{
		"layouts/all.html":   {Data: []byte("{{ .Title }}")},
		"static/js/theme.js": {Data: []byte("// js")},
	}
	logs := &bytes.Buffer{}
	opts := fixtureOptions(t, project, logs)
	opts.Repositories = []Repository{{Name: "r", ContentPath: "r"}}
	if _, err := render(context.Background(), opts, tree); err != nil {
		t.Fatalf("render: %v\n%s", err, logs)
	}
	for rel, want := range map[string]string{"docs/r/files/spec.pdf": "%PDF", "js/theme.js": "// js"} {
		data, err := os.ReadFile(filepath.Join(opts.PublishDir, filepath.FromSlash(rel)))
		if err != nil || string(data) != want {
			t.Errorf("%s = %q, %v; want %q", rel, data, err, want)
		}
	}
	for _, rel := range []string{"docs/r/page.md", "docs/r/.github/ci.yml", "docs/r/.gitignore"} {
		if _, err := os.Stat(filepath.Join(opts.PublishDir, rel)); err == nil {
			t.Errorf("%s copied as a static file", rel)
		}
	}
}
