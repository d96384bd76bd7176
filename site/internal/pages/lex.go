package pages

import (
	"bytes"
	"encoding/json"

	"github.com/gohugoio/hugo/parser/metadecoders"
	"github.com/gohugoio/hugo/parser/pageparser"
)

// lexPage reads a page with Hugo's page lexer, the costliest step of
// preparing a page. A page is lexed once as written, when it may need
// changes (inspectPage), and once more only when it was rewritten; what
// the lexer said of a page is kept beside it (lexedPage) for the steps
// after. A variable, so that a test can count the passes.
var lexPage = func(src []byte) (pageparser.Items, error) {
	return pageparser.ParseBytes(src, pageparser.Config{})
}

// lexedPage is a page with what Hugo's page lexer read in it, so that
// later steps need not lex it again.
type lexedPage struct {
	src []byte
	// items are the lexer's items of src, without an error; nil for a
	// page the lexer reads as one piece of text (see plainPage).
	items pageparser.Items
}

// plainPage reports whether the lexer reads src as text alone: no front
// matter can start it (after the spaces and byte order mark the lexer
// skips, it opens none: TOML, YAML, JSON or Org "#+") and it
// has no shortcode delimiter, the only other place the lexer finds
// anything, or fails.
func plainPage(src []byte) bool {
	s := bytes.TrimLeft(src, "\ufeff\t\n\v\f\r ")
	if len(s) > 0 && bytes.IndexByte([]byte("+-{"), s[0]) >= 0 || bytes.HasPrefix(s, []byte("#+")) {
		return false
	}
	return !bytes.Contains(src, []byte("{{"))
}

// of reports whether lp holds the lexing of b itself (the same bytes in
// memory).
func (lp *lexedPage) of(b []byte) bool {
	if lp == nil || len(lp.src) != len(b) {
		return false
	}
	return len(b) == 0 || &lp.src[0] == &b[0]
}

// frontMatterOf is splitFrontMatter of src, from the first of known that
// holds src's lexing, else from a new pass of the lexer.
func frontMatterOf(src []byte, known ...*lexedPage) (map[string]any, int, bool) {
	for _, lp := range known {
		if lp.of(src) {
			return frontMatterIn(src, lp.items)
		}
	}
	return splitFrontMatter(src)
}

// splitFrontMatter returns a page's front matter as a map and the offset
// where its body starts; a page without front matter gives an empty map
// and 0. ok is false when Hugo's page lexer cannot read the page.
func splitFrontMatter(src []byte) (map[string]any, int, bool) {
	items, err := lexPage(src)
	if err != nil {
		return nil, 0, false
	}
	return frontMatterIn(src, items)
}

// frontMatterIn is splitFrontMatter of src with its lexer items.
func frontMatterIn(src []byte, items pageparser.Items) (map[string]any, int, bool) {
	for i, it := range items {
		if it.IsError() {
			return nil, 0, false
		}
		if !it.IsFrontMatter() {
			continue
		}
		fm, err := metadecoders.Default.UnmarshalToMap(it.Val(src), pageparser.FormatFromFrontMatterType(it.Type))
		if err != nil {
			return nil, 0, false
		}
		start := len(src)
		if i+1 < len(items) {
			start = items[i+1].Pos()
		}
		return fm, start, true
	}
	return map[string]any{}, 0, true
}

// withParams returns src with params added to its front matter (written
// again as JSON, which Hugo reads as well): the render hook's link pairs,
// the page's namespaced aliases. known may hold src's lexing.
func withParams(src []byte, params map[string]any, known ...*lexedPage) ([]byte, bool) {
	fm, start, ok := frontMatterOf(src, known...)
	if !ok {
		return src, false
	}
	for k, v := range params {
		fm[k] = v
	}
	data, err := json.Marshal(fm)
	if err != nil {
		return src, false
	}
	var out bytes.Buffer
	out.Write(data)
	out.WriteByte('\n')
	out.Write(src[start:])
	return out.Bytes(), true
}
