package mdcopy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMenuOrderIsDepthFirst: a directory page comes before what is below
// it, each level keeping the order given; a page whose directory is not
// listed comes last.
func TestMenuOrderIsDepthFirst(t *testing.T) {
	pages := []Page{{Path: "/b"}, {Path: "/a/x"}, {Path: ""}, {Path: "/a"}, {Path: "/lost/y"}, {Path: "/a/w"}}
	var got []string
	for _, p := range MenuOrder(pages) {
		got = append(got, p.Path)
	}
	if strings.Join(got, " ") != " /b /a /a/x /a/w /lost/y" {
		t.Errorf("order %q", got)
	}
}

// TestAUnitGetsCopiesAndItsLLMsFiles writes a unit of two pages and one
// page published under a file name of its own: each directory page gets
// index.md, llms.txt lists them with descriptions, llms-full.txt holds
// both copies in menu order.
func TestAUnitGetsCopiesAndItsLLMsFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, body string) string {
		f := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	root := write("index.html", `<main><article><h1>Orchard</h1><p>All about trees.</p></article></main>`)
	sub := write("pruning/index.html", `<main><article><h1>Pruning</h1><p>Cut in winter.</p></article></main>`)
	odd := write("feed.html", `<main><article><h1>Feed</h1></article></main>`)
	n, err := New("https://docs.example.com").WriteUnit(Unit{
		Title: "Orchard", Summary: "Trees,\n and how to keep them.", Dir: dir, URL: "/docs/orchard/",
		Pages: []Page{
			{Path: "/pruning", URL: "/docs/orchard/pruning/", Title: "Pruning [basics]", Description: "When and\nhow.", HTML: sub},
			{Path: "/feed", URL: "/docs/orchard/feed.html", Title: "Feed", HTML: odd},
			{Path: "", URL: "/docs/orchard/", Title: "Orchard", HTML: root},
			{Path: "/gone", URL: "/docs/orchard/gone/", Title: "Gone", HTML: filepath.Join(dir, "gone", "index.html")},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("%d copies, want 2", n)
	}
	read := func(rel string) string {
		b, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got := read("pruning/index.md"); got != "# Pruning\n\nCut in winter.\n" {
		t.Errorf("pruning/index.md = %q", got)
	}
	wantIndex := "# Orchard\n\n> Trees, and how to keep them.\n\n## Pages\n\n" +
		"- [Orchard](https://docs.example.com/docs/orchard/index.md)\n" +
		"- [Pruning \\[basics\\]](https://docs.example.com/docs/orchard/pruning/index.md): When and how.\n"
	if got := read("llms.txt"); got != wantIndex {
		t.Errorf("llms.txt = %q, want %q", got, wantIndex)
	}
	full := read("llms-full.txt")
	if !strings.Contains(full, "# Orchard\n\nAll about trees.\n\n---\n\n<!-- https://docs.example.com/docs/orchard/pruning/ -->\n\n# Pruning") {
		t.Errorf("llms-full.txt = %q", full)
	}
	if _, err := os.Stat(filepath.Join(dir, "feed.md")); err == nil {
		t.Error("a page with a file name of its own got a copy")
	}
}
