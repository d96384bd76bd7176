package pages

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gohugoio/hugo/parser/metadecoders"
	"github.com/gohugoio/hugo/parser/pageparser"

	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/internal/model"
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
// Each of these is reported as a model.Issue naming the page.

// pageCheck is what inspectPage found in one Markdown file.
type pageCheck struct {
	issues []model.Issue
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
	// frontMatter is the page's front matter as Hugo is to read it
	// (checked; nil for none), bodyStart where the body starts in the
	// page to render (rewritten, else the file), and bodyLine the number
	// of lines before the body in the file as written: what the steps
	// after need without lexing the page again.
	frontMatter map[string]any
	bodyStart   int
	bodyLine    int
	// writtenBody is the body as written when a dialect converted it
	// (its lines are the ones to report), nil otherwise.
	writtenBody []byte
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
func mayNeedChanges(src []byte, dialects []dialect.Dialect) bool {
	if opensLikeFrontMatter(src) {
		return true
	}
	for _, d := range dialects {
		if d.Marked(src) {
			return true
		}
	}
	return false
}

// inspectPage checks the Markdown file rel (slash path under content/)
// with content src, converting it from the dialects (see dialects.go).
func inspectPage(rel string, src []byte, dialects []dialect.Dialect) pageCheck {
	return inspectPageIn(rel, src, dialects, dialect.Page{})
}

// inspectPageIn is inspectPage for a page whose repository's files the
// dialects may read (in's Files, Path, DocRoots and Repo).
func inspectPageIn(rel string, src []byte, dialects []dialect.Dialect, in dialect.Page) pageCheck {
	var pc pageCheck
	if !mayNeedChanges(src, dialects) {
		return pc // no front matter, nothing to convert
	}
	orig := src
	src, items, ok := pc.lexRepaired(rel, src)
	if !ok {
		return pc
	}

	bodyStart := 0
	var frontMatter []byte
	frontChanged := false
	for i, it := range items {
		if it.IsFrontMatter() {
			if i+1 < len(items) {
				bodyStart = items[i+1].Pos()
			}
			frontMatter, frontChanged = pc.checkFrontMatter(rel, it, src)
		}
	}
	page := dialect.Page{Source: src, BodyStart: bodyStart, Items: items, Files: in.Files, Path: in.Path, DocRoots: in.DocRoots, Repo: in.Repo}
	bodyLine := pc.line(src, bodyStart) - 1
	for _, d := range dialects {
		converted, notes := d.Convert(page)
		for _, n := range notes {
			pc.issues = append(pc.issues, model.Issue{Code: n.Code, Path: rel, Message: fmt.Sprintf("line %d: %s", bodyLine+n.Line, n.Message)})
		}
		if !bytes.Equal(converted, page.Body()) {
			page = page.WithBody(converted)
		}
	}
	converted := page.Body()
	pc.bodyLine = bytes.Count(src[:bodyStart], []byte("\n")) + pc.lineShift
	pc.bodyStart = bodyStart
	if !bytes.Equal(converted, src[bodyStart:]) {
		pc.writtenBody = src[bodyStart:]
	}
	if !frontChanged && bytes.Equal(converted, src[bodyStart:]) && bytes.Equal(src, orig) {
		return pc
	}
	var out bytes.Buffer
	if frontChanged {
		// JSON front matter: it always ends before the body, whatever the
		// body starts with (a "---" rule would be read as YAML front matter).
		out.Write(frontMatter)
		out.WriteByte('\n')
		pc.bodyStart = len(frontMatter) + 1
	} else {
		out.Write(src[:bodyStart])
	}
	out.Write(converted)
	pc.rewritten = out.Bytes()
	if bodyStart == 0 && !frontChanged {
		var added bool
		if pc.rewritten, added = withReadableStart(pc.rewritten); added {
			pc.bodyStart = len(emptyFrontMatter)
			pc.frontMatter = map[string]any{}
		}
	}
	return pc
}

// withReadableStart returns page with an empty front matter put before it
// when Hugo would misread its start as front matter, and whether it put
// one. A conversion can make such a start where the page as written had
// none: an admonition or a GitBook block on line 1 becomes a shortcode,
// "{{<", which Hugo reads as JSON front matter, leaving the page out.
// Only a page that opens like front matter is lexed.
func withReadableStart(page []byte) ([]byte, bool) {
	if !opensLikeFrontMatter(page) {
		return page, false
	}
	items, err := lexPage(page)
	if err != nil {
		return page, false
	}
	bad := -1
	for i, it := range items {
		if it.IsError() {
			bad = i
			break
		}
	}
	if !startsLikeFrontMatter(items, bad, page) {
		return page, false
	}
	return append([]byte(emptyFrontMatter), bytes.TrimPrefix(page, byteOrderMark)...), true
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
		items, err := lexPage(src)
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
				pc.issues = append(pc.issues, model.Issue{Code: model.IssueFrontMatterInvalid, Path: rel, Message: fmt.Sprintf(
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
			pc.issues = append(pc.issues, model.Issue{Code: model.IssueShownAsText, Path: rel, Message: fmt.Sprintf(
				"line %d: shortcode tag %s is shown as text: Hugo cannot read it (%v)", pc.line(src, start), quoteConstruct(firstLine(string(src[start:min(len(src), start+80)]))), lexError(items[bad], src))})
			src = append(append(append([]byte(nil), src[:start+2]...), zeroWidthSpace...), src[start+2:]...)
			continue
		}
		if end < 0 {
			pc.fail(rel, fmt.Sprintf("line %d: %v; left out", pc.line(src, items[bad].Pos()), lexError(items[bad], src)))
			return nil, nil, false
		}
		pc.issues = append(pc.issues, model.Issue{Code: model.IssueShortcodeInvalid, Path: rel, Message: fmt.Sprintf(
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
	return dialect.LineAt(src, pos) + pc.lineShift
}

// checkFrontMatter decodes the front matter item it and removes what cannot
// be used. It returns the replacement JSON front matter and true when the
// front matter must change.
func (pc *pageCheck) checkFrontMatter(rel string, it pageparser.Item, src []byte) ([]byte, bool) {
	format := pageparser.FormatFromFrontMatterType(it.Type)
	fm, err := metadecoders.Default.UnmarshalToMap(it.Val(src), format)
	if err != nil {
		pc.issues = append(pc.issues, model.Issue{Code: model.IssueFrontMatterInvalid, Path: rel, Message: fmt.Sprintf(
			"front matter is not valid %s (%s); the page is rendered without it", strings.ToUpper(string(format)), firstLine(err.Error()))})
		pc.frontMatter = map[string]any{}
		return []byte("{}"), true
	}
	pc.redirects = redirectsOf(fm)
	cleaned, changed, problems := checkFrontMatter(fm)
	pc.frontMatter = cleaned
	for _, p := range problems {
		pc.issues = append(pc.issues, model.Issue{Code: model.IssueFrontMatterInvalid, Path: rel, Message: p})
	}
	if !changed {
		return nil, false
	}
	data, err := json.Marshal(cleaned)
	if err != nil {
		pc.issues = append(pc.issues, model.Issue{Code: model.IssueFrontMatterInvalid, Path: rel, Message: fmt.Sprintf(
			"front matter cannot be used (%v); the page is rendered without it", err)})
		pc.frontMatter = map[string]any{}
		return []byte("{}"), true
	}
	return data, true
}

func (pc *pageCheck) fail(rel, msg string) {
	pc.broken = true
	pc.issues = append(pc.issues, model.Issue{Code: model.IssuePageRenderFailed, Path: rel, Message: msg})
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
