package hugo

import (
	"bytes"

	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/internal/mdcode"
)

// Dialect takes a page's shortcode tags out of Hugo's hands where Hugo
// would stop on them: tags of shortcodes the theme does not define, tags
// written in code, tags Hugo refuses.
type Dialect struct {
	known Set
}

// New returns the dialect for pages rendered with the shortcodes known.
func New(known Set) Dialect { return Dialect{known: known} }

// Marked reports whether src may hold a shortcode tag.
func (Dialect) Marked(src []byte) bool { return bytes.Contains(src, []byte("{{")) }

// Convert shows the page's tags of unknown shortcodes and its tags in
// code as written (Hugo's escaped form) and cuts the tags Hugo would
// refuse. It reads the tags from the lexer's items of the page as
// written, so it must run before any dialect that changes the body.
func (d Dialect) Convert(p dialect.Page) ([]byte, []dialect.Note) {
	var tags []shortcodeTag
	for i := 0; i < len(p.Items); i++ {
		if p.Items[i].IsLeftShortcodeDelim() {
			tag, next, ok := readShortcodeTag(p.Items, i, p.Source)
			if ok {
				tags = append(tags, tag)
			}
			i = next
		}
	}
	body := p.Body()
	fences := mdcode.FencedRanges(body)
	code := append(fences, mdcode.CodeSpanRanges(body, fences)...)
	line := func(pos int) int { return dialect.LineAt(body, pos-p.BodyStart) }
	cut, notes := checkShortcodes(tags, d.known, p.Repo, p.Source, codeAt(code, p.BodyStart), line)
	return applyEdits(body, neutralize(cut, code, p.BodyStart, p.Source), p.BodyStart), notes
}
