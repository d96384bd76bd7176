package pages

import (
	"bytes"
	"encoding/json"

	"github.com/gohugoio/hugo/parser/metadecoders"
	"github.com/gohugoio/hugo/parser/pageparser"
)

// lexPage reads a page with Hugo's page lexer, the costliest step of
// preparing a page with goldmark's parse of its links. A page is lexed at
// most once, as written, when it may need changes (inspectPage); what
// the steps after need of it (its front matter, where its body starts)
// is kept in its pageCheck. A converted page that opens like front
// matter is lexed once more (withReadableStart). A variable, so that a
// test can count the passes.
var lexPage = func(src []byte) (pageparser.Items, error) {
	return pageparser.ParseBytes(src, pageparser.Config{})
}

// opensLikeFrontMatter reports whether the lexer may read front matter at
// the start of src: after the spaces and byte order mark it skips, src
// opens as TOML, YAML, JSON or Org front matter would ("+", "-", "{",
// "#+").
func opensLikeFrontMatter(src []byte) bool {
	s := bytes.TrimLeft(src, "\ufeff\t\n\v\f\r ")
	return len(s) > 0 && bytes.IndexByte([]byte("+-{"), s[0]) >= 0 || bytes.HasPrefix(s, []byte("#+"))
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

// withParams returns page, whose front matter is fm (nil for none) and
// whose body starts at bodyStart, with params added to its front matter,
// written again as JSON, which Hugo reads as well: the menu's place and
// title from the authors' navigation, the page's namespaced aliases.
func withParams(page []byte, fm map[string]any, bodyStart int, params map[string]any) ([]byte, bool) {
	merged := make(map[string]any, len(fm)+len(params))
	for k, v := range fm {
		merged[k] = v
	}
	for k, v := range params {
		merged[k] = v
	}
	data, err := json.Marshal(merged)
	if err != nil {
		return page, false
	}
	var out bytes.Buffer
	out.Grow(len(data) + 1 + len(page) - bodyStart)
	out.Write(data)
	out.WriteByte('\n')
	out.Write(page[bodyStart:])
	return out.Bytes(), true
}
