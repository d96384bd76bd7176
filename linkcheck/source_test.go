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
