package mdlinks

import (
	"bytes"
	"html"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// MayHaveHTMLSource is the cheap test before RewriteHTMLSources: false
// when body names no source in raw HTML.
func MayHaveHTMLSource(body []byte) bool { return htmlTag.Match(body) }

// RewriteHTMLSources returns body with the value of each source attribute
// in its raw HTML (the sources Find reports with HTML set) replaced by
// what rewrite returns for it, written as it is between double quotes
// (so it must hold none); rewrite's false leaves a source as written. Raw HTML in code is not raw HTML and is
// never touched. The result is body itself when nothing changed.
//
// A source is relative to its page's file, while the browser resolves it
// against the page's URL, one folder deeper: a browser would look for a
// page's <img src="images/x.png"> in the wrong place unless it is
// rewritten.
func RewriteHTMLSources(body []byte, rewrite func(dest string) (string, bool)) []byte {
	if !MayHaveHTMLSource(body) {
		return body
	}
	type edit struct {
		start, stop int // the attribute value, quotes included
		value       string
	}
	var edits []edit
	visit := func(start, stop int) {
		eachHTMLSource(body, start, stop, func(vs, ve int, quoted bool) {
			v, ok := rewrite(html.UnescapeString(string(body[vs:ve])))
			if !ok || strings.Contains(v, `"`) {
				return
			}
			if quoted { // the value keeps its quotes; an unquoted one gets double ones
				vs, ve = vs-1, ve+1
			}
			edits = append(edits, edit{vs, ve, `"` + v + `"`})
		})
	}
	doc := parser.Parse(text.NewReader(body))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *ast.HTMLBlock, *ast.RawHTML:
			for _, r := range htmlRanges(n) {
				visit(r[0], r[1])
			}
		}
		return ast.WalkContinue, nil
	})
	if len(edits) == 0 {
		return body
	}
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		out.Write(body[last:e.start])
		out.WriteString(e.value)
		last = e.stop
	}
	out.Write(body[last:])
	return out.Bytes()
}
