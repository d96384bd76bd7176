// Package mdlinks reads the link and image destinations of a Markdown page
// the way Hugo's goldmark parses them, and tells which of them name a file
// of the repository. Two stages need the same reading: the clone stage,
// to learn which files outside the documentation roots the pages show (so
// they can be checked out and published), and the site, to rewrite each
// destination to where that file is published.
package mdlinks

import (
	"bytes"
	"html"
	"net/url"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// Link is one link or image of a page: its destination as written and the
// 1-based line of the body it starts on. HTML is set for a source named in
// raw HTML (<img src>, <video src>, …), which Hugo's render hooks never see.
type Link struct {
	Dest  string
	Line  int
	Image bool
	HTML  bool
	// At and End are the byte range of the destination in the body as
	// written (a reference link's, in its definition; an HTML source's
	// value, quotes excluded); At is -1 when it cannot be told (a link
	// made by a GitBook file block). Rewrite replaces that range.
	At, End int
	// Quoted is set for an HTML source whose value has quotes.
	Quoted bool
}

// htmlTag matches the opening tag of an element that shows a file (img,
// video, audio, source, embed) in raw HTML, and sourceAttr each of its
// attributes naming one (src; a video's poster too), with its value in
// double quotes, single quotes or none.
var (
	htmlTag    = regexp.MustCompile(`(?is)<(?:img|video|audio|source|embed)\b[^>]*>?`)
	sourceAttr = regexp.MustCompile(`(?is)\s(?:src|poster)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))`)
)

// eachHTMLSource calls fn with the bounds of each source attribute's value
// in the raw HTML body[start:stop] (quotes excluded; quoted tells whether
// it has them), in their order.
func eachHTMLSource(body []byte, start, stop int, fn func(valStart, valStop int, quoted bool)) {
	for _, t := range htmlTag.FindAllIndex(body[start:stop], -1) {
		tagStart := start + t[0]
		for _, m := range sourceAttr.FindAllSubmatchIndex(body[tagStart:start+t[1]], -1) {
			for g := 2; g < len(m); g += 2 {
				if m[g] >= 0 {
					fn(tagStart+m[g], tagStart+m[g+1], g < 6)
					break
				}
			}
		}
	}
}

// parser parses Markdown the way Hugo's goldmark does for links: with
// the extensions of Hugo's configuration that hold blocks of their own
// (footnotes, whose indented text is no code block; tables; definition
// lists).
var parser = goldmark.New(goldmark.WithExtensions(extension.Footnote, extension.Table, extension.DefinitionList)).Parser()

// Find lists the links and images of a Markdown body with the line each
// starts on (counted in body; a caller adds the front matter's lines).
func Find(body []byte) []Link {
	doc := parser.Parse(text.NewReader(body))
	var out []Link
	var code [][2]int // the byte ranges of code blocks' content
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch l := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			if lines := n.Lines(); lines.Len() > 0 {
				code = append(code, [2]int{lines.At(0).Start, lines.At(lines.Len() - 1).Stop})
			}
		case *ast.Link:
			at := offsetIn(body, l.Destination)
			out = append(out, Link{Dest: string(l.Destination), Line: lineOf(n, body), At: at, End: at + len(l.Destination)})
		case *ast.Image:
			at := offsetIn(body, l.Destination)
			out = append(out, Link{Dest: string(l.Destination), Line: lineOf(n, body), Image: true, At: at, End: at + len(l.Destination)})
		case *ast.HTMLBlock, *ast.RawHTML:
			for _, r := range htmlRanges(n) {
				out = append(out, htmlSources(body, r[0], r[1])...)
			}
		}
		return ast.WalkContinue, nil
	})
	return append(out, gitbookFiles(body, code)...)
}

// offsetIn is where dest, a destination goldmark read, starts in body:
// goldmark keeps an inline link's destination, and a reference
// definition's, as a slice of the source it parsed. -1 when dest is no
// slice of body (empty, or made by the parser).
func offsetIn(body, dest []byte) int {
	if len(dest) == 0 || len(body) == 0 {
		return -1
	}
	off := cap(body) - cap(dest)
	if off < 0 || off+len(dest) > len(body) || &body[off] != &dest[0] {
		return -1
	}
	return off
}

// htmlRanges are the byte ranges of the raw HTML node n (an HTMLBlock or
// a RawHTML): a block's lines as one range, so that a tag spanning lines is
// read whole, and its closing line.
func htmlRanges(n ast.Node) [][2]int {
	var out [][2]int
	switch l := n.(type) {
	case *ast.HTMLBlock:
		if lines := l.Lines(); lines.Len() > 0 {
			out = append(out, [2]int{lines.At(0).Start, lines.At(lines.Len() - 1).Stop})
		}
		if l.HasClosure() {
			out = append(out, [2]int{l.ClosureLine.Start, l.ClosureLine.Stop})
		}
	case *ast.RawHTML:
		for i := 0; i < l.Segments.Len(); i++ {
			out = append(out, [2]int{l.Segments.At(i).Start, l.Segments.At(i).Stop})
		}
	}
	return out
}

// htmlSources are the sources named in the raw HTML body[start:stop].
func htmlSources(body []byte, start, stop int) []Link {
	var out []Link
	eachHTMLSource(body, start, stop, func(vs, ve int, quoted bool) {
		dest := html.UnescapeString(string(body[vs:ve]))
		out = append(out, Link{Dest: dest, Line: bytes.Count(body[:vs], []byte("\n")) + 1, Image: true, HTML: true, At: vs, End: ve, Quoted: quoted})
	})
	return out
}

// lineOf is the 1-based line a link starts on: that of its first text, or
// of its parent block.
func lineOf(n ast.Node, body []byte) int {
	for c := n; c != nil; c = c.Parent() {
		if t, ok := c.FirstChild().(*ast.Text); ok && c == n {
			return bytes.Count(body[:t.Segment.Start], []byte("\n")) + 1
		}
		if c.Type() == ast.TypeBlock && c.Lines().Len() > 0 {
			return bytes.Count(body[:c.Lines().At(0).Start], []byte("\n")) + 1
		}
	}
	return 1
}

// Internal reports whether dest names a file of the repository rather
// than a place on the page, another site or a mail address.
func Internal(dest string) bool {
	switch {
	case dest == "", strings.HasPrefix(dest, "#"), strings.HasPrefix(dest, "//"), strings.HasPrefix(dest, "{{"):
		return false
	}
	if u, err := url.Parse(dest); err == nil && u.Scheme != "" {
		return false
	}
	// A colon in the query or fragment ("page.md#fn:1") is no scheme's.
	first := strings.SplitN(dest, "/", 2)[0]
	if i := strings.IndexAny(first, "?#"); i >= 0 {
		first = first[:i]
	}
	return !strings.Contains(first, ":")
}

// Path is the path part of dest as a file name: percent-decoded, and with
// backslash escapes (a backslash before punctuation) removed.
func Path(dest string) string {
	p := dest
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if dec, err := url.PathUnescape(p); err == nil {
		p = dec
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", p[i+1]) >= 0 {
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}
