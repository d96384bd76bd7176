package mdlinks

import (
	"bytes"
	"slices"
	"strings"
)

// MayHaveHTMLSource is a cheap test: false when body names no source in
// raw HTML.
func MayHaveHTMLSource(body []byte) bool { return htmlTag.Match(body) }

// Rewrite returns body with the destination of each of found (Find's
// links of body) replaced by what to returns for it; to's false leaves a
// destination as written, and so does a link whose place is unknown. A
// destination written once and used by several links (a reference
// definition) is replaced once. An HTML source is written between double
// quotes, so a value holding one is left as written; a Markdown
// destination gets its characters that would end it (space, parentheses,
// angle brackets, backslash, control characters) percent-encoded, as a
// URL already has them. Code is never touched: goldmark finds no link in
// it. The result is body itself when nothing changed.
//
// Documentation links a repository's files, while the browser resolves a
// destination against the page's URL, one folder deeper: the site gives
// the page its links' URLs before Hugo renders it.
func Rewrite(body []byte, found []Link, to func(Link) (string, bool)) []byte {
	type edit struct {
		start, stop int
		value       string
	}
	var edits []edit
	for _, l := range found {
		if l.At < 0 || l.End > len(body) {
			continue
		}
		v, ok := to(l)
		if !ok {
			continue
		}
		start, stop := l.At, l.End
		if l.HTML {
			if strings.Contains(v, `"`) {
				continue
			}
			if l.Quoted { // the value keeps its quotes; an unquoted one gets double ones
				start, stop = start-1, stop+1
			}
			v = `"` + strings.ReplaceAll(v, "&", "&amp;") + `"`
		} else {
			v = destinationText(v)
		}
		if string(body[start:stop]) == v {
			continue
		}
		edits = append(edits, edit{start, stop, v})
	}
	if len(edits) == 0 {
		return body
	}
	slices.SortFunc(edits, func(a, b edit) int { return a.start - b.start })
	var out bytes.Buffer
	out.Grow(len(body) + 32*len(edits))
	last := 0
	for _, e := range edits {
		if e.start < last {
			continue // the same definition again
		}
		out.Write(body[last:e.start])
		out.WriteString(e.value)
		last = e.stop
	}
	out.Write(body[last:])
	return out.Bytes()
}

// destinationText is URL v written as a Markdown destination, in or out
// of angle brackets: the characters that would end it or be read as an
// escape or an entity are percent-encoded.
func destinationText(v string) string {
	if !strings.ContainsAny(v, " ()<>\\&\t\r\n") {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case ' ', '(', ')', '<', '>', '\\', '&', '\t', '\r', '\n':
			b.WriteString("%" + strings.ToUpper(string("0123456789abcdef"[c>>4])+string("0123456789abcdef"[c&15])))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
