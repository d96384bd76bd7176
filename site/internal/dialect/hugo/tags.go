package hugo

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gohugoio/hugo/parser/pageparser"

	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/internal/model"
)

// checkShortcodes decides which shortcode tags Hugo must not run for the
// page to render, returns them in order, with notes saying why:
//
//   - every tag inside code (inCode says which): an example, shown as
//     written, whether its shortcode is known or not, and not reported;
//   - tags of unknown shortcodes (one issue per name): a pair of them
//     becomes a code block of its content or stays text between its tags
//     (pairUnknown), and any other is shown as written, as inline code
//     where it can be;
//   - tags of new-in and deprecated-in, their version quoted and, when
//     never closed, closed in place (featureTags);
//   - tags of include and readfile, checked against the repository's
//     files, or shown as written when they name none (includes);
//   - tags Hugo would refuse: an opening tag of a shortcode that takes
//     content but is never closed, a closing tag with no opening tag.
//
// Hugo pairs tags by structure, not by name: an opening tag of a shortcode
// that reads .Inner takes everything up to the next closing tag, whatever
// its name, with nested shortcodes in between. The same is done here.
func checkShortcodes(tags []shortcodeTag, known Set, repo dialect.Repo, src []byte, inCode func(shortcodeTag) bool, line func(pos int) int) ([]shortcodeTag, []dialect.Note) {
	var notes []dialect.Note
	cut := make([]bool, len(tags))
	reported := map[string]bool{}
	paired, blocks := pairUnknown(tags, known, inCode, src)
	featureTags(tags, known, inCode, src)
	notes = append(notes, includes(tags, repo, inCode, src, line)...)
	var open []int // indexes of opening tags waiting for their closing tag
	for i, t := range tags {
		if inCode(t) {
			// Written in code, any tag is an example of one: shown as
			// written, never run, never paired, nothing to report.
			tags[i].form = formEscaped
			cut[i] = true
			continue
		}
		if paired[i] {
			cut[i] = true
			if t.form == formEscaped {
				continue // part of an unknown shortcode's content shown as code
			}
		}
		if t.form == formCode && !paired[i] {
			cut[i] = true // an include that names no file (includes)
			continue
		}
		switch {
		case !t.inline && !known.has(t.name):
			if !paired[i] {
				tags[i].form = formCode
				cut[i] = true
			}
			if !reported[strings.ToLower(t.name)] {
				reported[strings.ToLower(t.name)] = true
				shown := "it is shown as written"
				if blocks[strings.ToLower(t.name)] {
					shown = "its content is shown as a code block"
				}
				notes = append(notes, dialect.Note{Code: model.IssueUnknownShortcode, Line: line(t.start), Message: fmt.Sprintf(
					"shortcode %q is not defined by the docweave theme; %s", t.name, shown)})
			}
		case t.form == formReplaced:
			cut[i] = true // rewritten by featureTags or includes
			if !t.selfClosing && known.needsInner(t.name) {
				open = append(open, i)
			}
		case t.closing:
			if len(open) == 0 {
				cut[i] = true
				notes = append(notes, dialect.Note{Code: model.IssueShortcodeInvalid, Line: line(t.start), Message: fmt.Sprintf(
					"closing tag of shortcode %q has no opening tag; dropped", t.name)})
				continue
			}
			open = open[:len(open)-1]
		case t.selfClosing:
		case t.inline:
			open = append(open, i)
			notes = append(notes, dialect.Note{Code: model.IssueUnknownShortcode, Line: line(t.start), Message: fmt.Sprintf(
				"inline shortcode %q is not run (inline shortcodes are disabled); dropped", t.name)})
		case known.needsInner(t.name):
			open = append(open, i)
		}
	}
	for _, i := range open {
		if tags[i].inline {
			continue // Hugo drops an unclosed inline shortcode by itself
		}
		cut[i] = true
		notes = append(notes, dialect.Note{Code: model.IssueShortcodeInvalid, Line: line(tags[i].start), Message: fmt.Sprintf(
			"shortcode %q takes content but is never closed; its tag is dropped", tags[i].name)})
	}
	var out []shortcodeTag
	for i, t := range tags {
		if cut[i] {
			out = append(out, t)
		}
	}
	return out, notes
}

// edit replaces the source bytes [start, end) with text.
type edit struct {
	start, end int
	text       string
}

// codeAt returns whether a tag lies inside code: one of the byte ranges
// of the body's fenced blocks and inline code spans, the body starting at
// offset in the source.
func codeAt(code [][2]int, offset int) func(shortcodeTag) bool {
	return func(t shortcodeTag) bool {
		for _, c := range code {
			if t.start-offset >= c[0] && t.end-offset <= c[1] {
				return true
			}
		}
		return false
	}
}

// neutralize returns the edits that take tags out of Hugo's hands, each
// as its form says. A tag shown as written is turned into Hugo's escaped
// form ({{</* name */>}}), which Hugo prints as the tag itself: the page
// shows it as its author wrote it, as a forge does; outside code it is
// inline code too when on one line, a code block labelled with its name
// when on lines of its own. Any tag inside code (a fenced block
// or an inline code span) is escaped alone. code are the byte ranges of
// the body's code, the body starting at offset in the source src.
func neutralize(tags []shortcodeTag, code [][2]int, offset int, src []byte) []edit {
	var edits []edit
	inCode := codeAt(code, offset)
	for _, t := range tags {
		written := string(src[t.start:t.end])
		switch {
		case !inCode(t) && t.form == formCode && bytes.IndexByte(src[t.start:t.end], '\n') >= 0 && aloneOnLine(src, t):
			// A tag on lines of its own: a code block of the tag as written.
			edits = append(edits, edit{start: t.start, end: t.end, text: fmt.Sprintf("{{< %s label=%q lang=\"\" >}}%s{{< /%s >}}",
				codeShortcode, t.name, escapedTag(written), codeShortcode)})
		case inCode(t) || t.form == formEscaped || (t.form == formCode && !inlineCodeFits(src, t)):
			edits = append(edits, edit{start: t.start, end: t.end, text: escapedTag(written)})
		case t.form == formCode:
			edits = append(edits, edit{start: t.start, end: t.end, text: inlineCode(escapedTag(written))})
		case t.form == formReplaced:
			edits = append(edits, edit{start: t.start, end: t.end, text: t.with})
		default:
			edits = append(edits, edit{start: t.start, end: t.end})
		}
	}
	return edits
}

// shortcodeTag is one shortcode tag: {{< name args >}} or {{< /name >}}.
type shortcodeTag struct {
	name        string
	start, end  int  // byte range in the source, delimiters included
	closing     bool // {{< /name >}}
	selfClosing bool // {{< name />}}
	inline      bool // {{< name.inline >}}, a template written in the page
	// named holds the tag's named arguments (file=hugo), as written, and
	// arg0 the byte range of its first positional argument (without its
	// quotes), if any.
	named map[string]string
	arg0  [2]int
	// form is what the tag becomes when Hugo must not run it as written,
	// and with its replacement (formReplaced).
	form tagForm
	with string
}

// readShortcodeTag reads the tag whose left delimiter is items[i]. It
// returns the tag, the index of its right delimiter, and false when the
// tag is cut short by an error or the end of the input (then next is the
// index of that item).
func readShortcodeTag(items pageparser.Items, i int, src []byte) (shortcodeTag, int, bool) {
	tag := shortcodeTag{start: items[i].Pos()}
	for j := i + 1; j < len(items); j++ {
		it := items[j]
		switch {
		case it.IsError(), it.IsEOF():
			return tag, j, false
		case it.IsShortcodeClose():
			if tag.name == "" {
				tag.closing = true
			} else {
				tag.selfClosing = true
			}
		case it.IsShortcodeName():
			tag.name = it.ValStr(src)
		case it.IsShortcodeParam() && tag.arg0[1] == 0 && (j+1 >= len(items) || !items[j+1].IsShortcodeParamVal()):
			tag.arg0 = [2]int{it.Pos(), it.Pos() + len(it.Val(src))}
		case it.IsShortcodeParam() && j+1 < len(items) && items[j+1].IsShortcodeParamVal():
			if tag.named == nil {
				tag.named = map[string]string{}
			}
			tag.named[it.ValStr(src)] = items[j+1].ValStr(src)
			j++
		case it.IsInlineShortcodeName():
			tag.name, tag.inline = it.ValStr(src), true
		case it.IsRightShortcodeDelim():
			tag.end = it.Pos() + len(it.Val(src))
			return tag, j, true
		}
	}
	return tag, len(items), false
}

// applyEdits returns body (which starts at offset in the source) with the
// edits, given in source offsets, in order and not overlapping, applied.
func applyEdits(body []byte, edits []edit, offset int) []byte {
	if len(edits) == 0 {
		return body
	}
	out := make([]byte, 0, len(body)+8*len(edits))
	pos := 0
	for _, e := range edits {
		start, end := e.start-offset, e.end-offset
		if start < pos || end > len(body) || start > end {
			continue
		}
		out = append(out, body[pos:start]...)
		out = append(out, e.text...)
		pos = end
	}
	return append(out, body[pos:]...)
}

// ShowTags turns the shortcode tags on the lines selected by at into
// Hugo's escaped form, which Hugo prints as the tag itself, and returns
// the page, the tags as written and the line of the first. Lines stay
// where they were.
func ShowTags(page []byte, at func(line int) bool) ([]byte, []string, int) {
	items, err := pageparser.ParseBytes(page, pageparser.Config{})
	if err != nil {
		return page, nil, 0
	}
	first := 0
	var tags []shortcodeTag
	var shown []string
	for i := 0; i < len(items); i++ {
		if !items[i].IsLeftShortcodeDelim() {
			continue
		}
		tag, next, ok := readShortcodeTag(items, i, page)
		i = next
		if line := dialect.LineAt(page, tag.start); ok && at(line) {
			if first == 0 {
				first = line
			}
			tag.form = formEscaped
			tags = append(tags, tag)
			shown = append(shown, string(page[tag.start:tag.end]))
		}
	}
	return applyEdits(page, neutralize(tags, nil, 0, page), 0), shown, first
}
