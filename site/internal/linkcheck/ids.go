package linkcheck

import (
	"bytes"

	"golang.org/x/net/html"
)

// IDs reads the ids a #fragment may name on a rendered page: every id
// attribute, and the name of an <a>, inside the page's <main> element
// (where the theme puts the page's text; the frame around it is the same
// on every page), or in the whole page when it has none. The order is the
// page's; each id once.
func IDs(page []byte) []string {
	if i := bytes.Index(page, []byte("<main")); i >= 0 {
		page = page[i:]
		if j := bytes.LastIndex(page, []byte("</main>")); j >= 0 {
			page = page[:j]
		}
	}
	var out []string
	seen := map[string]bool{}
	add := func(v []byte) {
		if len(v) > 0 && !seen[string(v)] {
			seen[string(v)] = true
			out = append(out, string(v))
		}
	}
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return out // the end, or HTML a browser reads as far as this
		case html.StartTagToken, html.SelfClosingTagToken:
			name, more := z.TagName()
			anchor := len(name) == 1 && name[0] == 'a'
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				if string(k) == "id" || anchor && string(k) == "name" {
					add(v)
				}
			}
		}
	}
}
