// Package material is the dialect of MkDocs with Material for MkDocs and
// the pymdownx extensions its authors write in: content tabs (=== "Title"),
// icon and emoji shortcodes, annotations, snippets (--8<--), attribute
// lists ({ .md-button }), ==mark== and ^^insert^^. It converts them into
// the theme's shortcodes, Markdown goldmark reads, or small HTML, before
// Hugo runs and without running anything of the page. Admonitions
// (!!! and ???) are the admonitions dialect's.
package material

import (
	"bytes"
	"regexp"

	"github.com/docweave/docweave/site/internal/dialect"
)

// Dialect converts Material for MkDocs' constructs.
type Dialect struct{}

// colonCode finds a word between colons, the shape of an emoji or icon
// shortcode.
var colonCode = regexp.MustCompile(`:[a-z0-9_+-]+:`)

// Marked reports whether src may hold one of the constructs.
func (Dialect) Marked(src []byte) bool {
	for _, s := range []string{"===", "==", "^^", "--8<--", "{:", "{ .", "{.", "{ #", "{#", "{ width", ")!"} {
		if bytes.Contains(src, []byte(s)) {
			return true
		}
	}
	return colonCode.Match(src)
}

// Convert converts the page's body: its snippets are included first (as
// pymdownx reads them, before anything else), then its blocks (tabs,
// attribute lines, annotations) and its inline constructs. Every line
// keeps its number but the lines an included snippet adds; notes name the
// line in the body as written.
func (d Dialect) Convert(p dialect.Page) ([]byte, []dialect.Note) {
	if !d.Marked(p.Body()) {
		return p.Body(), nil
	}
	body, notes, origLine := includeSnippets(p)
	body = convertBlocks(body)
	body, inline := convertInline(body)
	for _, n := range inline {
		n.Line = origLine(n.Line)
		notes = append(notes, n)
	}
	if bytes.Equal(body, p.Body()) {
		return p.Body(), notes
	}
	return body, notes
}
