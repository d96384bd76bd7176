package rawsyntax

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/docweave/docweave/site/internal/model"
)

// Page is a rendered page to read: File, the file it was rendered from (a
// slash path relative to content/, which its issues name), and HTML, the
// published page.
type Page struct {
	File string
	HTML string
}

// triggers are what each kind of raw syntax holds, as the page's HTML
// writes it: a page holding none of them shows none (most pages), and is
// not parsed.
var triggers = [][]byte{
	[]byte("{{"), []byte("{%"), []byte("[!"), []byte("==="), []byte("!!!"), []byte("???"), []byte(":::"),
	[]byte(":material-"), []byte(":octicons-"), []byte(":fontawesome-"), []byte(":simple-"),
	[]byte("import"), []byte("Tabs"), []byte("TabItem"), []byte("8&lt;"), []byte("8<"),
}

// mayShow is the cheap test before Scan, on the page's <main> element
// when it has one (the theme's own script holds "===").
func mayShow(html []byte) bool {
	if i := bytes.Index(html, []byte("<main")); i >= 0 {
		html = html[i:]
		if j := bytes.LastIndex(html, []byte("</main>")); j >= 0 {
			html = html[:j]
		}
	}
	for _, t := range triggers {
		if bytes.Contains(html, t) {
			return true
		}
	}
	return false
}

// Issues reads each page and returns a RAW_SYNTAX issue for each kind of
// source syntax a reader meets as text on it, with an example. A page not
// published as HTML (a url of its own elsewhere) is skipped.
func Issues(pages []Page) ([]model.Issue, error) {
	var issues []model.Issue
	for _, p := range pages {
		html, err := os.ReadFile(p.HTML)
		if err != nil || !mayShow(html) {
			continue
		}
		found, err := Scan(bytes.NewReader(html))
		if err != nil {
			return nil, fmt.Errorf("read rendered page %s: %w", filepath.Base(filepath.Dir(p.HTML)), err)
		}
		for _, fd := range found {
			issues = append(issues, model.Issue{Code: model.IssueRawSyntax, Path: p.File, Message: fmt.Sprintf(
				"the rendered page shows %s syntax as text: %q; a construct its dialect does not convert (see docs/other-tools.md)", fd.Kind, fd.Example)})
		}
	}
	return issues, nil
}
