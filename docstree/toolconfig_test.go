package docstree

import (
	"os"
	"path/filepath"
	"testing"
)

// A repository's mkdocs.yml at its root comes along with the
// documentation, under ToolConfigDir; a link of that name does not, and a
// repository without documentation carries nothing.
func TestToolConfigurationComesAlong(t *testing.T) {
	repo := t.TempDir()
	for rel, content := range map[string]string{"docs/index.md": "# Home\n", "mkdocs.yml": "nav:\n  - index.md\n", "elsewhere.yml": "x: 1\n"} {
		p := filepath.Join(repo, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(repo, "elsewhere.yml"), filepath.Join(repo, "mkdocs.yaml")); err != nil {
		t.Fatal(err)
	}
	files, _, err := CollectDocs(repo, []string{"docs"}, Policy{})
	if err != nil {
		t.Fatal(err)
	}
	var rels []string
	for _, f := range files {
		rels = append(rels, f.Rel)
	}
	if len(rels) != 2 || rels[0] != ToolConfigDir+"/mkdocs.yml" || rels[1] != "index.md" {
		t.Fatalf("tree %v, want index.md and %s/mkdocs.yml (not the link mkdocs.yaml)", rels, ToolConfigDir)
	}
}
