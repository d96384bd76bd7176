package material

import (
	"regexp"
	"strings"

	"github.com/docweave/docweave/site/internal/mdcode"
)

// Python-Markdown's attribute lists ({: #id .class key="value" }, the
// colon optional) follow a heading, a block or an inline element. Goldmark
// reads them after a heading (written without the colon): there they are
// kept. On a line of their own they set a block's classes, which mean
// nothing to the theme but one, "annotate": the line goes (a blank line
// in its place). Inline, convertInline handles them.

// attrTokens matches the inside of an attribute list: #id, .class and
// key=value tokens, and nothing else (so "{.app.metadata.name}", a
// JSONPath, is none).
const attrTokens = `((?:[.#][A-Za-z_][\w-]*|[A-Za-z_][\w-]*=(?:"[^"]*"|'[^']*'|[^\s{}"']+))(?:[ \t]+(?:[.#][A-Za-z_][\w-]*|[A-Za-z_][\w-]*=(?:"[^"]*"|'[^']*'|[^\s{}"']+)))*)`

var (
	// attrLine is an attribute list alone on its line.
	attrLine = regexp.MustCompile(`^[ \t]*\{:?[ \t]*` + attrTokens + `[ \t]*\}[ \t\r]*$`)
	// headingAttrs is an attribute list ending a heading.
	headingAttrs = regexp.MustCompile(`^( {0,3}#{1,6}[ \t].*?)[ \t]*\{:?[ \t]*` + attrTokens + `[ \t]*\}[ \t\r]*$`)
	// fenceAttrs is an opening fence whose info is an attribute list
	// alone (``` { .yaml .no-copy }): Hugo would read "{" as the
	// language. After a language (```go {file="x.go"}) Hugo reads the
	// list itself, so it stays.
	fenceAttrs = regexp.MustCompile("^([ \t]*(?:`{3,}|~{3,}))[ \t]*\\{[ \t]*" + attrTokens + `[ \t]*\}[ \t\r]*$`)
	// admonitionModifiers are Material's words after an admonition's
	// type: "annotate", "inline" and "inline end".
	admonitionModifiers = regexp.MustCompile(`^([ \t]*(?:!!!|\?\?\?\+?)[ \t]+[A-Za-z][\w-]*)((?:[ \t]+(?:annotate|inline|end))+)([ \t]+"[^"]*")?([ \t\r]*)$`)
	// annotationMarker is an annotation's marker in text, (1), and
	// codeAnnotation its form in code, (1)! (whose "!" Material strips
	// with the comment around it: here the marker stays, readable).
	annotationMarker = regexp.MustCompile(`\((\d{1,2})\)`)
	codeAnnotation   = regexp.MustCompile(`\((\d{1,2})\)!`)
)

// convertBlocks converts the page's tabs and its block-level attribute
// lists and annotations.
func convertBlocks(body []byte) []byte {
	// A tab group's closing tags may have taken a line of their own
	// within an element: split again.
	lines := strings.Split(strings.Join(convertTabs(strings.Split(string(body), "\n")), "\n"), "\n")
	var code fences
	for i, line := range lines {
		if code.in(line) {
			if m := fenceAttrs.FindStringSubmatch(line); m != nil && mdcode.FenceOf([]byte(strings.TrimLeft(line, " \t"))) != nil {
				lines[i] = m[1] + fenceLanguage("", m[2])
			} else {
				lines[i] = codeAnnotation.ReplaceAllString(line, "($1)")
			}
			continue
		}
		switch m := attrLine.FindStringSubmatch(line); {
		case m != nil:
			if hasClass(m[1], "annotate") {
				markAnnotations(lines, i)
			}
			lines[i] = ""
			continue
		}
		if m := headingAttrs.FindStringSubmatch(line); m != nil {
			lines[i] = m[1] + " {" + m[2] + "}"
			continue
		}
		if m := admonitionModifiers.FindStringSubmatch(line); m != nil {
			lines[i] = m[1] + m[3] + m[4]
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// fenceLanguage is the language of a fence whose info was lang and an
// attribute list: lang, else the list's first class.
func fenceLanguage(lang, attrs string) string {
	if lang != "" {
		return lang
	}
	for _, t := range strings.Fields(attrs) {
		if strings.HasPrefix(t, ".") {
			return t[1:]
		}
	}
	return ""
}

// hasClass reports whether an attribute list's tokens hold .class.
func hasClass(tokens, class string) bool {
	for _, t := range strings.Fields(tokens) {
		if t == "."+class {
			return true
		}
	}
	return false
}

// markAnnotations turns the annotation markers, (1), of the block ending
// before line at (back to the blank line before it) into numbered
// markers; the ordered list after the block is the notes, in their order.
func markAnnotations(lines []string, at int) {
	for i := at - 1; i >= 0 && strings.TrimSpace(lines[i]) != ""; i-- {
		line := lines[i]
		spans := mdcode.CodeSpanRanges([]byte(line), nil)
		var b strings.Builder
		last := 0
		for _, m := range annotationMarker.FindAllStringSubmatchIndex(line, -1) {
			if inRanges(spans, m[0]) {
				continue
			}
			b.WriteString(line[last:m[0]])
			b.WriteString(`<sup class="annotation-marker">` + line[m[2]:m[3]] + `</sup>`)
			last = m[1]
		}
		b.WriteString(line[last:])
		lines[i] = b.String()
	}
}

// inRanges reports whether pos is inside one of ranges.
func inRanges(ranges [][2]int, pos int) bool {
	for _, r := range ranges {
		if pos >= r[0] && pos < r[1] {
			return true
		}
	}
	return false
}
