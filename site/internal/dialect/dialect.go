// Package dialect says what a dialect is: the syntax one authoring tool
// (GitBook, MkDocs, Docusaurus, another Hugo site) lets its authors write
// in a page, which a dialect package converts into what Hugo and
// docweave's theme render, before Hugo runs and without running anything
// of the page. The dialects a render uses, and their order, are listed in
// one place: site/internal/pages/dialects.go.
package dialect

import (
	"bytes"
	"io/fs"

	"github.com/gohugoio/hugo/parser/pageparser"
)

// Dialect converts one tool's constructs in a page's body.
type Dialect interface {
	// Marked is a cheap test on a page file's bytes: false when the page
	// holds nothing the dialect converts, so that a page no dialect marks
	// is neither lexed nor copied.
	Marked(src []byte) bool
	// Convert returns the page's body with the dialect's constructs
	// converted (the body itself when it has none), and notes on those
	// it could not convert. Every line keeps its number.
	Convert(p Page) ([]byte, []Note)
}

// Page is one page as the dialects see it, one after the other.
type Page struct {
	// Source is the page, and BodyStart where its body starts (after the
	// front matter).
	Source    []byte
	BodyStart int
	// Items are Hugo's page lexer's items of Source, read once for all
	// dialects; nil once an earlier dialect changed the body (Source is
	// then that body alone).
	Items pageparser.Items
	// Files reads the files of the page's repository (of its version),
	// refusing any path out of it, symbolic links included; Path is the
	// page's file in Files and DocRoots the repository's documentation
	// roots ("docs"), which Files holds the contents of. Files is nil
	// when the page's repository is not known. A dialect that includes
	// a file (MkDocs' snippets) reads it there only.
	Files    fs.FS
	Path     string
	DocRoots []string
	// Repo is the page's repository, for constructs that name another of
	// its files (Hugo's include and readfile).
	Repo Repo
}

// WithBody is the page with body as its whole source, the way the next
// dialect sees a body one changed (its repository's files kept).
func (p Page) WithBody(body []byte) Page {
	return Page{Source: body, Files: p.Files, Path: p.Path, DocRoots: p.DocRoots, Repo: p.Repo}
}

// Body is the page's body, which Convert converts.
func (p Page) Body() []byte { return p.Source[p.BodyStart:] }

// Note is a construct a dialect could not convert as its tool would: kept
// as text or dropped, and reported as a page issue.
type Note struct {
	// Code is the code (one of model's Issue* codes).
	Code string
	// Line is the construct's 1-based line in the body given to Convert.
	Line int
	// Message says what happened, without the line.
	Message string
}

// LineAt is the 1-based line of byte offset pos.
func LineAt(src []byte, pos int) int {
	if pos > len(src) {
		pos = len(src)
	}
	return bytes.Count(src[:pos], []byte("\n")) + 1
}

// NavEntry is what a tool's navigation (GitBook's SUMMARY.md, MkDocs'
// nav) says of one page: its place (1 for the first) and its title in the
// menu ("" when the navigation gives none), and the group of the
// navigation it is listed in (a SUMMARY.md's "## Heading", a MkDocs nav
// section's title; "" when none), which names the folders whose pages
// all sit in it, and the title of the entry it is nested under (Parent,
// "" at the top), which names a folder whose pages are all nested under
// an entry outside it.
type NavEntry struct {
	Weight int
	Title  string
	Group  string
	Parent string
}
