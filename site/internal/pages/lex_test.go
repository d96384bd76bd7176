package pages

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gohugoio/hugo/parser/pageparser"

	"github.com/docweave/docweave/internal/mdlinks"
	"github.com/docweave/docweave/site/internal/model"
)

// Preparing a page lexes it once at most, as written: the front matter
// and body start that links and parameters need come from that pass, and
// its links from one parse of its body by goldmark. (Before, a page with
// front matter and a link to rewrite was lexed up to three times, and a
// rewritten one parsed twice by goldmark.)
func TestPreparingAPageLexesItOnceAsWritten(t *testing.T) {
	files := map[string]string{
		"r/plain.md":    "# Plain\n\nSee [fm](/fm.md).\n",
		"r/org.md":      "#+TITLE: Org\n\nSee [plain](/plain.md).\n",
		"r/fm.md":       "---\ntitle: With front matter\n---\n\nSee [plain](/plain.md).\n",
		"r/shown.md":    "---\ntitle: Shown\n---\n\nAn {{< unknown >}} tag, and [plain](/plain.md).\n",
		"r/feedform.md": "\f---\ntitle: Form feed first\n---\n\nSee [plain](/plain.md).\n",
	}
	content := t.TempDir()
	writeTree(t, content, files)
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
	parses := 0
	oldFind := findLinks
	t.Cleanup(func() { findLinks = oldFind })
	findLinks = func(body []byte) []mdlinks.Link {
		parses++
		return oldFind(body)
	}
	tree := Tree{Dirs: []string{"r"}, Markdown: []string{"r/feedform.md", "r/fm.md", "r/org.md", "r/plain.md", "r/shown.md"}}
	p, err := Prepare(content, t.TempDir(), tree, []model.Repository{{Name: "r", ContentPath: "r"}}, "/", fstest.MapFS{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"r/fm.md":       1,
		"r/feedform.md": 1, // a form feed before the front matter: Hugo's lexer skips it, so does the quick test
		"r/shown.md":    1, // its rewritten copy is not lexed again
		"r/org.md":      1, // Org front matter ("#+")
	}
	if !reflect.DeepEqual(lexes, want) {
		t.Errorf("lexer passes per page = %v, want %v", lexes, want)
	}
	if parses != len(files) {
		t.Errorf("goldmark parsed the pages' bodies %d times, want once per page (%d)", parses, len(files))
	}
	for _, rel := range []string{"r/plain.md", "r/fm.md", "r/shown.md", "r/feedform.md", "r/org.md"} {
		if !p.Rewritten[rel] {
			t.Errorf("%s was not given its link's URL", rel)
		}
	}
}

// The pass over the pages' ids and slugs reads YAML, TOML and JSON front
// matter without the page lexer, and nothing else as front matter.
func TestFrontMatterHeadReadsEachFormat(t *testing.T) {
	for src, want := range map[string]string{
		"---\nid: a\nslug: b\n---\n# T\n":    "a",
		"\ufeff+++\nid = \"a\"\n+++\nbody\n": "a",
		"{\"id\": \"a\"}\nbody {\n":          "a",
		"---\r\nid: a\r\n---\r\n":            "a",
		"--- not front matter\nid: a\n---\n": "",
		"---\nid: a\nnever closed\n":         "",
		"# id: a\n":                          "",
	} {
		fm, _ := frontMatterHead([]byte(src))
		if got := idOf(fm); got != want {
			t.Errorf("frontMatterHead(%q) id = %q, want %q", src, got, want)
		}
	}
}

// Only front matter that may set an id or a slug is decoded before the
// pages are prepared.
func TestIDOrSlugKeyFindsOnlyThoseKeys(t *testing.T) {
	for src, want := range map[string]bool{
		"---\nid: a\n---\n": true, "+++\nSlug = \"s\"\n+++\n": true, "{\"id\": \"a\"}\n": true, "{\"title\": \"t\", \"slug\": \"s\"}": true,
		"---\ntitle: A guide\nsidebar_label: x\n---\n": false, "---\ntitle: t\n---\n\nid: in the body\n": true,
	} {
		if got := idOrSlugKey.MatchString(src); got != want {
			t.Errorf("idOrSlugKey(%q) = %v, want %v", src, got, want)
		}
	}
}
