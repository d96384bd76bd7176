// Package github is the dialect of Markdown written to be read on GitHub,
// for what Hugo's Markdown does not already render as GitHub does: a task
// list's check boxes, which goldmark writes without a name a screen reader
// can read. (GitHub's alerts are rendered by the theme's blockquote hook,
// its footnotes and heading ids by Hugo's own Markdown.)
package github

import (
	"bytes"
	"regexp"

	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/internal/mdcode"
)

// Dialect converts task list items ("- [x] done") into list items opening
// with a named, read-only check box.
type Dialect struct{}

// Marked reports whether src may hold a task list item.
func (Dialect) Marked(src []byte) bool {
	return bytes.Contains(src, []byte("] ")) && taskItem.Match(src)
}

// taskItem is a list item opening with a task box: its indentation, any
// quote markers and its bullet or number, the box's mark, and the space
// after the box.
var taskItem = regexp.MustCompile(`(?m)^([ \t>]*(?:[-*+]|\d{1,9}[.)])[ \t]+)\[([ xX])\]([ \t])`)

// Convert gives each task box outside fenced code a check box of its own,
// checked for "[x]", labelled "Done" or "To do" for screen readers (axe
// counts an unnamed form field as a critical fault), as GitHub shows
// it: read-only.
func (Dialect) Convert(p dialect.Page) ([]byte, []dialect.Note) {
	body := p.Body()
	fences := mdcode.FencedRanges(body)
	inFence := func(pos int) bool {
		for _, f := range fences {
			if pos >= f[0] && pos < f[1] {
				return true
			}
		}
		return false
	}
	matches := taskItem.FindAllSubmatchIndex(body, -1)
	if len(matches) == 0 {
		return body, nil
	}
	var out []byte
	last := 0
	for _, m := range matches {
		if inFence(m[0]) {
			continue
		}
		box := `<input type="checkbox" disabled aria-label="To do">`
		if body[m[4]] != ' ' {
			box = `<input type="checkbox" checked disabled aria-label="Done">`
		}
		out = append(out, body[last:m[3]]...)
		out = append(out, box...)
		last = m[6] // the space after the box stays
	}
	if out == nil {
		return body, nil
	}
	return append(out, body[last:]...), nil
}
