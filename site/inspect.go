package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gohugoio/hugo/parser/metadecoders"
	"github.com/gohugoio/hugo/parser/pageparser"
)

// Hugo stops its whole build at the first page with an unknown shortcode,
// front matter it cannot parse or a shortcode it cannot lex. Before a
// render, every Markdown file is read once with Hugo's own page lexer and
// checked:
//
//   - tags of unknown shortcodes are cut out (the text between an opening
//     and a closing tag stays), GitBook tags are converted, and front
//     matter keys that cannot be used are removed. The result is written to
//     a copy that is rendered instead of the file, which is never modified;
//   - a shortcode tag the lexer cannot read and that is never closed is
//     shown as text (IssueShownAsText); a page the lexer cannot read at
//     all is left out.
//
// Each of these is reported as an Issue naming the page.

// pageCheck is what inspectPage found in one Markdown file.
type pageCheck struct {
	issues []Issue
	// rewritten is the content to render instead of the file, or nil when
	// the file is rendered as it is.
	rewritten []byte
	// broken is set when the page cannot be rendered at all.
	broken bool
	// lineShift corrects line numbers after a line was added at the top.
	lineShift int
	// redirects are the page's other URLs from its front matter (aliases
	// and url) as written; the render places them in the repository's
	// namespace.
	redirects []string
}

// maxLexRepairs bounds how many tags of one page are cut for Hugo's lexer.
const maxLexRepairs = 50

// emptyFrontMatter is put before a page whose start Hugo would misread as
// front matter: a page opening with a shortcode ("{{<" looks like JSON
// front matter), a list ("- item" looks like a YAML delimiter) or a rule.
const emptyFrontMatter = "{}\n"

var byteOrderMark = []byte("\ufeff")

// zeroWidthSpace breaks up a shortcode delimiter Hugo must not read, and is
// not seen by a reader.
const zeroWidthSpace = "\u200b"

// mayNeedChanges is a cheap test on a file's bytes: only files with front
// matter or with something that looks like a tag are lexed.
func mayNeedChanges(src []byte) bool {
	s := bytes.TrimLeft(src, "\ufeff \t\r\n")
	if len(s) > 0 && (s[0] == '-' || s[0] == '+' || s[0] == '{') {
		return true
	}
	return bytes.Contains(src, []byte("{{")) || bytes.Contains(src, []byte("{%")) || mayHaveAdmonitions(src)
}

// inspectPage checks the Markdown file rel (slash path under content/)
// with content src against the known shortcodes.
func inspectPage(rel string, src []byte, known shortcodeSet) pageCheck {
	var pc pageCheck
	if !mayNeedChanges(src) {
		return pc
	}
	orig := src
	src, items, ok := pc.lexRepaired(rel, src)
	if !ok {
		return pc
	}

	bodyStart := 0
	var frontMatter []byte
	frontChanged := false
	var tags []shortcodeTag
	for i := 0; i < len(items); i++ {
		it := items[i]
		switch {
		case it.IsFrontMatter():
			if i+1 < len(items) {
				bodyStart = items[i+1].Pos()
			}
			frontMatter, frontChanged = pc.checkFrontMatter(rel, it, src)
		case it.IsLeftShortcodeDelim():
			tag, next, ok := readShortcodeTag(items, i, src)
			if ok {
				tags = append(tags, tag)
			}
			i = next
		}
	}
	body := src[bodyStart:]
	fences := fencedRanges(body)
	code := append(fences, codeSpanRanges(body, fences)...)
	edits := neutralize(pc.checkShortcodes(rel, tags, known, src, codeAt(code, bodyStart)), code, bodyStart)

	body = applyEdits(body, edits, bodyStart)
	converted, dropped := convertGitBookTags(body)
	converted = convertAdmonitions(converted)
	bodyLine := pc.line(src, bodyStart) - 1
	for _, tag := range dropped {
		pc.issues = append(pc.issues, Issue{Code: IssueUnknownShortcode, Path: rel, Message: fmt.Sprintf(
			"line %d: GitBook tag %q has no equivalent in the docweave theme; the tag is dropped and the text kept", bodyLine+tag.Line, tag.Name)})
	}
	if len(edits) == 0 && !frontChanged && bytes.Equal(converted, src[bodyStart:]) && bytes.Equal(src, orig) {
		return pc
	}
	var out bytes.Buffer
	if frontChanged {
		// JSON front matter: it always ends before the body, whatever the
		// body starts with (a "---" rule would be read as YAML front matter).
		out.Write(frontMatter)
		out.WriteByte('\n')
	} else {
		out.Write(src[:bodyStart])
	}
	out.Write(converted)
	pc.rewritten = out.Bytes()
	if bodyStart == 0 && !frontChanged {
		pc.rewritten = withReadableStart(pc.rewritten)
	}
	return pc
}

// withReadableStart returns page with an empty front matter put before it
// when Hugo would misread its start as front matter. A conversion can
// make such a start where the page as written had none: an admonition or
// a GitBook block on line 1 becomes a shortcode, "{{<", which Hugo reads
// as JSON front matter, leaving the page out.
func withReadableStart(page []byte) []byte {
	items, err := pageparser.ParseBytes(page, pageparser.Config{})
	if err != nil {
		return page
	}
	bad := -1
	for i, it := range items {
		if it.IsError() {
			bad = i
			break
		}
	}
	if !startsLikeFrontMatter(items, bad, page) {
		return page
	}
	return append([]byte(emptyFrontMatter), bytes.TrimPrefix(page, byteOrderMark)...)
}

// lexRepaired lexes src with Hugo's page lexer and repairs what the lexer
// refuses, the way Hugo would otherwise refuse the page:
//
//   - a start Hugo misreads as front matter gets an empty front matter put
//     before it;
//   - a shortcode tag the lexer cannot read (an unterminated quote, a
//     closing tag that matches no opening tag) is cut up to its closing
//     delimiter, or, with none, shown as text.
//
// It returns the repaired source and its items, or false when the page
// cannot be repaired (it is then marked broken).
func (pc *pageCheck) lexRepaired(rel string, src []byte) ([]byte, pageparser.Items, bool) {
	for repairs := 0; ; repairs++ {
		items, err := pageparser.ParseBytes(src, pageparser.Config{})
		if err != nil {
			pc.fail(rel, fmt.Sprintf("the page cannot be read: %v; left out", err))
			return nil, nil, false
		}
		bad := -1
		for i, it := range items {
			if it.IsError() {
				bad = i
				break
			}
		}
		misreadStart := startsLikeFrontMatter(items, bad, src)
		if bad < 0 && !misreadStart {
			return src, items, true
		}
		if repairs == maxLexRepairs {
			pc.fail(rel, fmt.Sprintf("more than %d shortcode tags cannot be read; left out", maxLexRepairs))
			return nil, nil, false
		}
		if misreadStart {
			if pc.lineShift != 0 {
				pc.fail(rel, fmt.Sprintf("line 1: %v; left out", lexError(items[max(bad, 0)], src)))
				return nil, nil, false
			}
			if bad >= 0 && bytes.HasPrefix(bytes.TrimLeft(src, "\ufeff \t\r\n"), []byte("---")) {
				pc.issues = append(pc.issues, Issue{Code: IssueFrontMatterInvalid, Path: rel, Message: fmt.Sprintf(
					"front matter cannot be read (%v); the page is rendered with it as text", lexError(items[bad], src))})
			}
			src = append([]byte(emptyFrontMatter), bytes.TrimPrefix(src, byteOrderMark)...)
			pc.lineShift = -1
			continue
		}
		start := -1
		for i := bad - 1; i >= 0; i-- {
			if items[i].IsLeftShortcodeDelim() {
				start = items[i].Pos()
				break
			}
		}
		closing := []byte(">}}")
		if start >= 0 && bytes.HasPrefix(src[start:], []byte("{{%")) {
			closing = []byte("%}}")
		}
		end := -1
		if start >= 0 {
			if n := bytes.Index(src[start+3:], closing); n >= 0 {
				end = start + 3 + n + len(closing)
			}
		}
		if end < 0 && start >= 0 {
			// A tag never closed: its opening delimiter is broken up with
			// an invisible space, so the tag shows as text.
			pc.issues = append(pc.issues, Issue{Code: IssueShownAsText, Path: rel, Message: fmt.Sprintf(
				"line %d: shortcode tag %s is shown as text: Hugo cannot read it (%v)", pc.line(src, start), quoteConstruct(firstLine(string(src[start:min(len(src), start+80)]))), lexError(items[bad], src))})
			src = append(append(append([]byte(nil), src[:start+2]...), zeroWidthSpace...), src[start+2:]...)
			continue
		}
		if end < 0 {
			pc.fail(rel, fmt.Sprintf("line %d: %v; left out", pc.line(src, items[bad].Pos()), lexError(items[bad], src)))
			return nil, nil, false
		}
		pc.issues = append(pc.issues, Issue{Code: IssueShortcodeInvalid, Path: rel, Message: fmt.Sprintf(
			"line %d: %v; the tag is dropped", pc.line(src, start), lexError(items[bad], src))})
		src = append(append([]byte(nil), src[:start]...), src[end:]...)
	}
}

// startsLikeFrontMatter reports whether Hugo took the start of a page for
// front matter that is not there: a lexer error before any content
// ("- item", "---" never closed), or "JSON front matter" that is really a
// shortcode ("{{< note >}}" at the very top) or a GitBook tag ("{% hint %}").
func startsLikeFrontMatter(items pageparser.Items, bad int, src []byte) bool {
	for i, it := range items {
		switch {
		case it.Type == pageparser.TypeIgnore:
			continue
		case i == bad:
			return true
		case it.Type == pageparser.TypeFrontMatterJSON:
			v := bytes.TrimSpace(it.Val(src))
			return bytes.HasPrefix(v, []byte("{{")) || bytes.HasPrefix(v, []byte("{%"))
		default:
			return false
		}
	}
	return false
}

// line is the 1-based line of byte offset pos in the page as written.
func (pc *pageCheck) line(src []byte, pos int) int {
	return lineAt(src, pos) + pc.lineShift
}

// checkFrontMatter decodes the front matter item it and removes what cannot
// be used. It returns the replacement JSON front matter and true when the
// front matter must change.
func (pc *pageCheck) checkFrontMatter(rel string, it pageparser.Item, src []byte) ([]byte, bool) {
	format := pageparser.FormatFromFrontMatterType(it.Type)
	fm, err := metadecoders.Default.UnmarshalToMap(it.Val(src), format)
	if err != nil {
		pc.issues = append(pc.issues, Issue{Code: IssueFrontMatterInvalid, Path: rel, Message: fmt.Sprintf(
			"front matter is not valid %s (%s); the page is rendered without it", strings.ToUpper(string(format)), firstLine(err.Error()))})
		return []byte("{}"), true
	}
	pc.redirects = redirectsOf(fm)
	cleaned, changed, problems := checkFrontMatter(fm)
	for _, p := range problems {
		pc.issues = append(pc.issues, Issue{Code: IssueFrontMatterInvalid, Path: rel, Message: p})
	}
	if !changed {
		return nil, false
	}
	data, err := json.Marshal(cleaned)
	if err != nil {
		pc.issues = append(pc.issues, Issue{Code: IssueFrontMatterInvalid, Path: rel, Message: fmt.Sprintf(
			"front matter cannot be used (%v); the page is rendered without it", err)})
		return []byte("{}"), true
	}
	return data, true
}

// checkShortcodes decides which shortcode tags Hugo must not run for the
// page to render, records why, and returns them in order:
//
//   - every tag inside code (inCode says which): an example, shown as
//     written, whether its shortcode is known or not, and not reported;
//   - tags of unknown shortcodes (marked shown: the page shows them as
//     written; one issue per name);
//   - tags Hugo would refuse: an opening tag of a shortcode that takes
//     content but is never closed, a closing tag with no opening tag.
//
// Hugo pairs tags by structure, not by name: an opening tag of a shortcode
// that reads .Inner takes everything up to the next closing tag, whatever
// its name, with nested shortcodes in between. The same is done here.
func (pc *pageCheck) checkShortcodes(rel string, tags []shortcodeTag, known shortcodeSet, src []byte, inCode func(shortcodeTag) bool) []shortcodeTag {
	cut := make([]bool, len(tags))
	reported := map[string]bool{}
	var open []int // indexes of opening tags waiting for their closing tag
	for i, t := range tags {
		if inCode(t) {
			// Written in code, any tag is an example of one: shown as
			// written, never run, never paired, nothing to report.
			tags[i].shown = true
			cut[i] = true
			continue
		}
		switch {
		case !t.inline && !known.has(t.name):
			tags[i].shown = true
			cut[i] = true
			if !reported[strings.ToLower(t.name)] {
				reported[strings.ToLower(t.name)] = true
				pc.issues = append(pc.issues, Issue{Code: IssueUnknownShortcode, Path: rel, Message: fmt.Sprintf(
					"line %d: shortcode %q is not defined by the docweave theme; it is shown as written", pc.line(src, t.start), t.name)})
			}
		case t.closing:
			if len(open) == 0 {
				cut[i] = true
				pc.issues = append(pc.issues, Issue{Code: IssueShortcodeInvalid, Path: rel, Message: fmt.Sprintf(
					"line %d: closing tag of shortcode %q has no opening tag; dropped", pc.line(src, t.start), t.name)})
				continue
			}
			open = open[:len(open)-1]
		case t.selfClosing:
		case t.inline:
			open = append(open, i)
			pc.issues = append(pc.issues, Issue{Code: IssueUnknownShortcode, Path: rel, Message: fmt.Sprintf(
				"line %d: inline shortcode %q is not run (inline shortcodes are disabled); dropped", pc.line(src, t.start), t.name)})
		case known.needsInner(t.name):
			open = append(open, i)
		}
	}
	for _, i := range open {
		if tags[i].inline {
			continue // Hugo drops an unclosed inline shortcode by itself
		}
		cut[i] = true
		pc.issues = append(pc.issues, Issue{Code: IssueShortcodeInvalid, Path: rel, Message: fmt.Sprintf(
			"line %d: shortcode %q takes content but is never closed; its tag is dropped", pc.line(src, tags[i].start), tags[i].name)})
	}
	var out []shortcodeTag
	for i, t := range tags {
		if cut[i] {
			out = append(out, t)
		}
	}
	return out
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

// neutralize returns the edits that take tags out of Hugo's hands. A tag
// of an unknown shortcode, and any tag inside code (a fenced block or an
// inline code span), is turned into Hugo's escaped form
// ({{</* name */>}}), which Hugo prints as the tag itself: the page shows
// it as its author wrote it, as a forge does. Elsewhere a tag Hugo would
// refuse is cut. code are the byte ranges of the body's code, the body
// starting at offset in the source.
func neutralize(tags []shortcodeTag, code [][2]int, offset int) []edit {
	var edits []edit
	inCode := codeAt(code, offset)
	for _, t := range tags {
		if (t.shown || inCode(t)) && t.end-t.start >= 6 {
			edits = append(edits, edit{start: t.start + 3, end: t.start + 3, text: "/*"}, edit{start: t.end - 3, end: t.end - 3, text: "*/"})
			continue
		}
		edits = append(edits, edit{start: t.start, end: t.end})
	}
	return edits
}

func (pc *pageCheck) fail(rel, msg string) {
	pc.broken = true
	pc.issues = append(pc.issues, Issue{Code: IssuePageRenderFailed, Path: rel, Message: msg})
}

// shortcodeTag is one shortcode tag: {{< name args >}} or {{< /name >}}.
type shortcodeTag struct {
	name        string
	start, end  int  // byte range in the source, delimiters included
	closing     bool // {{< /name >}}
	selfClosing bool // {{< name />}}
	inline      bool // {{< name.inline >}}, a template written in the page
	shown       bool // an unknown shortcode's tag: shown as written
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

// lineAt is the 1-based line of byte offset pos.
func lineAt(src []byte, pos int) int {
	if pos > len(src) {
		pos = len(src)
	}
	return bytes.Count(src[:pos], []byte("\n")) + 1
}

// lexError is the lexer's message for an error item, on one line and
// short: Hugo quotes the rest of the input after some errors.
func lexError(it pageparser.Item, src []byte) string {
	msg := it.ValStr(src)
	if it.Err != nil {
		msg = it.Err.Error()
	}
	msg = firstLine(msg)
	if r := []rune(msg); len(r) > 100 {
		msg = string(r[:100]) + "…"
	}
	return msg
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
