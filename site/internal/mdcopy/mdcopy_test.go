package mdcopy

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what was converted:\n%s", file, got)
	}
}

// TestAPageBecomesWhatItsReaderSaw converts a page of the theme with each
// of its components: the copy holds the title and body only (no menu,
// table of contents, terms, pager, icons or script), a callout as a quote
// with its label, each tab under a heading below the section's, a details
// block as its summary in bold, and every URL absolute.
func TestAPageBecomesWhatItsReaderSaw(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("testdata", "page.html"))
	if err != nil {
		t.Fatal(err)
	}
	md, err := New("https://docs.example.com/").Convert(page, "/docs/orchard/pruning/")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "page.md", md)
	for _, want := range []string{
		"# Pruning orchards\n",
		"> **Warning**",
		"### Apples\n",
		"**Why not in autumn?**",
		"[ladder shelf](https://docs.example.com/docs/orchard/ladders/)",
		"[when to cut](https://docs.example.com/docs/orchard/pruning/#when)",
		"![A clean cut](https://docs.example.com/docs/orchard/pruning/images/cut.png)",
		"```shell\nshears --angle 45\n```",
		"| Apple | February |",
		"### Cuts & angles\n", // the heading's alias anchor and icon dropped
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("the copy lacks %q", want)
		}
	}
	for _, unwanted := range []string{"On this page", "trees", "Next", "Skip to content", "===", "<svg", "Orchard", "a comment", "Pears\n\nApples"} {
		if strings.Contains(string(md), unwanted) {
			t.Errorf("the copy holds %q", unwanted)
		}
	}
}

// TestASiteWithoutHostKeepsPathsFromItsRoot: with a base URL that is a
// path, links are paths from the site's root.
func TestASiteWithoutHostKeepsPathsFromItsRoot(t *testing.T) {
	page := []byte(`<main><article><h1>T</h1><p><a href="../b/">b</a> <a href="#x">x</a></p></article></main>`)
	md, err := New("").Convert(page, "/docs/r/a/")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(md), "# T\n\n[b](/docs/r/b/) [x](/docs/r/a/#x)\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestAPageWithoutArticleHasNoCopy: a redirect page holds no article.
func TestAPageWithoutArticleHasNoCopy(t *testing.T) {
	md, err := New("").Convert([]byte(`<html><head><meta http-equiv="refresh" content="0; url=/x/"></head></html>`), "/old/")
	if err != nil || md != nil {
		t.Errorf("got %q, %v; want no copy", md, err)
	}
}
