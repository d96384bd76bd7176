package pages

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gohugoio/hugo/parser/pageparser"

	"github.com/docweave/docweave/site/internal/model"
)

// Preparing a page lexes it once at most as written, and once more only
// when it was rewritten: the front matter and body start that links and
// parameters need come from that pass. (Before, a page with front matter
// and a link to rewrite was lexed three times.)
func TestPreparingAPageLexesItOnceAsWritten(t *testing.T) {
	files := map[string]string{
		"r/plain.md":    "# Plain\n\nSee [fm](/fm.md).\n",
		"r/org.md":      "#+TITLE: Org\n\nSee [plain](/plain.md).\n",
		"r/fm.md":       "---\ntitle: With front matter\n---\n\nSee [plain](/plain.md).\n",
		"r/shown.md":    "---\ntitle: Shown\n---\n\nAn {{< unknown >}} tag, and [plain](/plain.md).\n",
		"r/feedform.md": "\f---\ntitle: Form feed first\n---\n\nSee [plain](/plain.md).\n",
	}
	content := t.TempDir()
	for name, text := range files {
		p := filepath.Join(content, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	markers := map[string]string{"r/plain.md": "# Plain", "r/fm.md": "With front matter", "r/shown.md": "Shown", "r/feedform.md": "Form feed", "r/org.md": "TITLE: Org"}
	lexes := map[string]int{}
	old := lexPage
	t.Cleanup(func() { lexPage = old })
	lexPage = func(src []byte) (pageparser.Items, error) {
		for name, marker := range markers {
			if strings.Contains(string(src), marker) {
				lexes[name]++
			}
		}
		return old(src)
	}
	tree := Tree{Dirs: []string{"r"}, Markdown: []string{"r/feedform.md", "r/fm.md", "r/org.md", "r/plain.md", "r/shown.md"}}
	p, err := Prepare(content, t.TempDir(), tree, []model.Repository{{Name: "r", ContentPath: "r"}}, "/", fstest.MapFS{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"r/fm.md": 1, // as written; the link's pair added from that pass
		// A form feed before the front matter: Hugo's lexer skips it, the
		// quick test does not, so the page is lexed where it is needed.
		"r/feedform.md": 2,
		"r/shown.md":    2, // as written, then its rewritten copy
		"r/org.md":      2, // Org front matter ("#+"): lexed where it is needed, as before
	}
	if !reflect.DeepEqual(lexes, want) {
		t.Errorf("lexer passes per page = %v, want %v", lexes, want)
	}
	for _, rel := range []string{"r/plain.md", "r/fm.md", "r/shown.md", "r/feedform.md"} {
		if !p.Rewritten[rel] {
			t.Errorf("%s was not given its link's pair", rel)
		}
	}
}
