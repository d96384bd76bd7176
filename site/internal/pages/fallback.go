package pages

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/internal/dialect/hugo"
)

// No page is lost to a construct Hugo cannot render. When a build fails on
// a page the checks before the render let through (a shortcode whose
// template stops with an error, such as Hugo's param without a value), the
// page is not left out: the next build renders it with what broke it shown
// as text, one step further each time it fails again:
//
//  1. the shortcode tags on the line Hugo named (and on each further line
//     it names) are shown as written, in Hugo's escaped form;
//  2. every shortcode tag of the page is shown as written;
//  3. the whole body is shown as a code block.
//
// Each step is reported as a warning (model.IssueShownAsText) naming the line
// and the construct. Only a page that fails even as a code block is left
// out (model.IssuePageRenderFailed). Every step keeps the page's front matter,
// so its URL, title and menu entry stay as they were, and keeps its lines
// where they were, so later steps and reports can name them.

// Steps of a page's fallback, in order.
const (
	fallbackLines = iota // the tags on the lines Hugo named
	fallbackTags         // every tag
	fallbackCode         // the body as a code block
	fallbackDone         // nothing left to try: the page is left out
)

// pageFallback is how far one page's fallback has gone.
type pageFallback struct {
	step  int
	lines map[int]bool // lines (of the page as rendered) whose tags are shown
}

// shownAsText is one fallback step applied to a page: its new content, the
// line it concerns (of the page as rendered) and what is shown as text, said
// for a reader.
type shownAsText struct {
	page      []byte
	line      int
	construct string
}

// next applies the next step that changes page, given the line Hugo's
// error named (0 when none). It returns false when no step is left.
func (fb *pageFallback) next(page []byte, line int) (shownAsText, bool) {
	for ; fb.step < fallbackDone; fb.step++ {
		switch fb.step {
		case fallbackLines:
			if line <= 0 || fb.lines[line] {
				continue
			}
			out, shown, _ := hugo.ShowTags(page, func(l int) bool { return l == line })
			if len(shown) == 0 {
				continue
			}
			if fb.lines == nil {
				fb.lines = map[int]bool{}
			}
			fb.lines[line] = true
			return shownAsText{page: out, line: line, construct: "shortcode tag " + quoteConstruct(strings.Join(shown, " ")) + " is shown as text"}, true
		case fallbackTags:
			out, shown, first := hugo.ShowTags(page, func(int) bool { return true })
			if len(shown) == 0 {
				continue
			}
			fb.step++
			return shownAsText{page: out, line: first, construct: fmt.Sprintf("every shortcode tag of the page (%d, the first %s) is shown as text", len(shown), quoteConstruct(shown[0]))}, true
		case fallbackCode:
			fb.step++
			out, start := bodyAsCode(page)
			return shownAsText{page: out, line: start, construct: "the page's Markdown is shown as a code block"}, true
		}
	}
	return shownAsText{}, false
}

// bodyAsCode returns page with its body in a fenced code block (its front
// matter kept) and the line the body starts on. The fence's opening line
// takes the place of the line between front matter and body where there is
// one; Hugo still runs shortcodes inside code, so their tags are shown.
func bodyAsCode(page []byte) ([]byte, int) {
	page, _, _ = hugo.ShowTags(page, func(int) bool { return true })
	_, start, ok := splitFrontMatter(page)
	if !ok {
		start = 0
	}
	body := page[start:]
	fence := strings.Repeat("`", max(3, longestRun(body, '`')+1))
	var out bytes.Buffer
	out.Write(page[:start])
	out.WriteString(fence + "text\n")
	out.Write(body)
	if len(body) > 0 && body[len(body)-1] != '\n' {
		out.WriteByte('\n')
	}
	out.WriteString(fence + "\n")
	return out.Bytes(), dialect.LineAt(page, start)
}

// longestRun is the length of the longest run of c in b.
func longestRun(b []byte, c byte) int {
	longest, run := 0, 0
	for _, x := range b {
		if x == c {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// quoteConstruct quotes a construct for a message, cut to a readable
// length.
func quoteConstruct(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 80 {
		s = string(r[:80]) + "…"
	}
	return strconv.Quote(s)
}

// namedLine is the line that a Hugo message names in one of files (absolute
// file names: "…/file:12:5"), or 0.
func namedLine(msg string, files ...string) int {
	for _, f := range files {
		m := regexp.MustCompile(`(?:^|[^\w./-])` + regexp.QuoteMeta(f) + `:(\d+):\d+`).FindStringSubmatch(msg)
		if m != nil {
			n, _ := strconv.Atoi(m[1])
			return n
		}
	}
	return 0
}

// bodyLine is the line a page's body starts on, after its front matter.
func bodyLine(page []byte) int {
	if _, start, ok := splitFrontMatter(page); ok {
		return dialect.LineAt(page, start)
	}
	return 1
}
