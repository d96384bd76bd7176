package linkcheck

import (
	"path/filepath"
	"testing"
)

func TestSourceMapFindsMarkdownAndRepository(t *testing.T) {
	root := writeSite(t, map[string]string{
		"content/handbook/_index.md":            "",
		"content/handbook/guide/install.md":     "",
		"content/handbook/guide/setup/index.md": "",
		"content/github/tools/ref.markdown":     "",
		"content/github/tools/Upper Case/x.md":  "",
		"content/github/tools-extra/_index.md":  "",
	})
	m := newSourceMap(filepath.Join(root, "content"), []Repository{
		{Name: "handbook", ContentPath: "handbook", Forge: "forgejo", Roots: []string{"docs"}},
		{Name: "tools", ContentPath: "github/tools", Forge: "github", Roots: []string{"docs", "guides"}},
		{Name: "tools-extra", ContentPath: "github/tools-extra", Forge: "github", Roots: []string{"./doc/"}},
	})
	cases := []struct {
		file, source, repo string
	}{
		{"docs/handbook/index.html", "docs/_index.md", "handbook"},
		{"docs/handbook/guide/install/index.html", "docs/guide/install.md", "handbook"},
		{"docs/handbook/guide/setup/index.html", "docs/guide/setup/index.md", "handbook"},
		{"docs/handbook/guide/index.html", "", "handbook"}, // generated directory page
		{"docs/github/tools/ref/index.html", "ref.markdown", "tools"},
		{"docs/github/tools/Upper Case/x/index.html", "Upper Case/x.md", "tools"},
		{"docs/github/tools-extra/index.html", "doc/_index.md", "tools-extra"},
		{"index.html", "", ""},
		{"tags/index.html", "", ""},
	}
	for _, c := range cases {
		src, repo := m.lookup(c.file)
		name := ""
		if repo != nil {
			name = repo.Name
		}
		if src != c.source || name != c.repo {
			t.Errorf("%s: got %q in %q, want %q in %q", c.file, src, name, c.source, c.repo)
		}
	}
}

// With versioning each version is an entry of its own: a page maps to its
// version's source, and the version is named.
func TestSourceMapNamesTheVersion(t *testing.T) {
	root := writeSite(t, map[string]string{
		"content/product/main/guide.md":   "",
		"content/product/v1.0.0/guide.md": "",
	})
	m := newSourceMap(filepath.Join(root, "content"), []Repository{
		{Name: "product", ContentPath: "product/main", Version: "main", Roots: []string{"docs"}},
		{Name: "product", ContentPath: "product/v1.0.0", Version: "v1.0.0", Roots: []string{"docs"}},
	})
	src, repo := m.lookup("docs/product/v1.0.0/guide/index.html")
	if repo == nil || repo.Name != "product" || repo.Version != "v1.0.0" || src != "docs/guide.md" {
		t.Fatalf("got %q in %+v", src, repo)
	}
}
