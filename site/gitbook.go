package site

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// GitBook writes its blocks as Liquid-style tags on lines of their own:
//
//	{% hint style="warning" %}
//	Back up first.
//	{% endhint %}
//
// Hugo shows such lines as text. convertGitBookTags turns the blocks that
// have an equivalent into the theme's shortcodes or plain Markdown, and
// drops the tags of the other GitBook blocks, keeping the text between
// them. Only whole-line tags outside fenced code blocks are touched, and
// only tags GitBook defines, so a Liquid or Jinja example in a code block
// or a sentence stays as written.

// gitbookTagLine matches a line holding one tag: its name (with "end" for
// closing tags) and its arguments.
var gitbookTagLine = regexp.MustCompile(`^ {0,3}\{%-?\s*([a-z][a-z0-9-]*)\b(.*?)\s*-?%\}\s*$`)

// gitbookArg reads key="value" arguments of a tag.
var gitbookArg = regexp.MustCompile(`([a-zA-Z-]+)\s*=\s*"([^"]*)"`)

// gitbookBlocks are GitBook's block names with what becomes of their tags.
var gitbookBlocks = map[string]func(args map[string]string) (line string, supported bool){
	"hint": func(args map[string]string) (string, bool) {
		return fmt.Sprintf("{{< hint %q >}}", hintStyle(args["style"])), true
	},
	"endhint": func(map[string]string) (string, bool) { return "{{< /hint >}}", true },
	// Tabs become the theme's tabs: a tab list, or stacked sections
	// without scripts.
	"tabs":    fixed("{{< tabs >}}"),
	"endtabs": fixed("{{< /tabs >}}"),
	"tab": func(args map[string]string) (string, bool) {
		return fmt.Sprintf("{{< tab title=%s >}}", shortcodeString(args["title"])), true
	},
	"endtab": fixed("{{< /tab >}}"),
	// A code block with a title becomes a titled code block; without
	// one, the code stays as it is.
	"code": func(args map[string]string) (string, bool) {
		return fmt.Sprintf("{{< titled-code title=%s >}}", shortcodeString(args["title"])), true
	},
	"endcode": fixed("{{< /titled-code >}}"),
	// An embed becomes a link card to the embedded page (its caption, in
	// the newer form with an end tag, stays as text below it).
	"embed": func(args map[string]string) (string, bool) {
		if u := args["url"]; strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://") {
			return fmt.Sprintf("{{< embed url=%s >}}", shortcodeString(u)), true
		}
		return "", false
	},
	"endembed": drop(true),
	// A content reference holds a link to the page it names; it becomes a
	// link card around that link, which resolves like any other.
	"content-ref":    fixed("{{< content-ref >}}"),
	"endcontent-ref": fixed("{{< /content-ref >}}"),
	"raw":            drop(true),
	"endraw":         drop(true),
	// Blocks without an equivalent: the tags go, the text stays.
	"swagger":       drop(false),
	"endswagger":    drop(false),
	"api-method":    drop(false),
	"endapi-method": drop(false),
	"file":          drop(false),
	"include":       drop(false),
	"stepper":       drop(false),
	"endstepper":    drop(false),
	"step":          drop(false),
	"endstep":       drop(false),
	"columns":       drop(false),
	"endcolumns":    drop(false),
	"column":        drop(false),
	"endcolumn":     drop(false),
	"updates":       drop(false),
	"endupdates":    drop(false),
	"update":        drop(false),
	"endupdate":     drop(false),
}

// fixed is a tag that always becomes the same line.
func fixed(line string) func(map[string]string) (string, bool) {
	return func(map[string]string) (string, bool) { return line, true }
}

// shortcodeString quotes s as a shortcode argument: Hugo reads a
// backquoted argument raw, so only a backquote itself must go.
func shortcodeString(s string) string {
	return "`" + strings.ReplaceAll(strings.TrimSpace(s), "`", "'") + "`"
}

func drop(supported bool) func(map[string]string) (string, bool) {
	return func(map[string]string) (string, bool) { return "", supported }
}

// hintStyle maps GitBook's hint styles to the theme's callout kinds.
func hintStyle(style string) string {
	switch strings.ToLower(style) {
	case "success":
		return "tip"
	case "warning":
		return "warning"
	case "danger":
		return "danger"
	default:
		return "info"
	}
}

// gitbookTag is a GitBook tag that was dropped without an equivalent.
type gitbookTag struct {
	Name string
	Line int // 1-based, in the body given to convertGitBookTags
}

// convertGitBookTags rewrites the GitBook tags of a page body. It returns
// the body unchanged (and no tags) when there is nothing to convert.
func convertGitBookTags(body []byte) ([]byte, []gitbookTag) {
	if !bytes.Contains(body, []byte("{%")) {
		return body, nil
	}
	lines := bytes.SplitAfter(body, []byte("\n"))
	var out bytes.Buffer
	var dropped []gitbookTag
	changed := false
	var fence []byte // the opening fence of the code block we are in
	// An open content reference: the page its tag names, and whether a
	// line other than blank came before its end tag.
	var refURL string
	refOpen, refHasInner := false, false
	for i, line := range lines {
		trimmed := bytes.TrimLeft(line, " ")
		if f := fenceOf(trimmed); f != nil && len(line)-len(trimmed) <= 3 {
			switch {
			case fence == nil:
				fence = f
			case bytes.HasPrefix(f, fence) && len(bytes.TrimSpace(trimmed[len(f):])) == 0:
				fence = nil
			}
		}
		if fence != nil {
			out.Write(line)
			continue
		}
		m := gitbookTagLine.FindSubmatch(bytes.TrimRight(line, "\r\n"))
		if m == nil {
			if refOpen && len(bytes.TrimSpace(line)) > 0 {
				refHasInner = true
			}
			out.Write(line)
			continue
		}
		convert, ok := gitbookBlocks[string(m[1])]
		if !ok {
			out.Write(line)
			continue
		}
		args := map[string]string{}
		for _, a := range gitbookArg.FindAllSubmatch(m[2], -1) {
			args[string(a[1])] = string(a[2])
		}
		replacement, supported := convert(args)
		switch string(m[1]) {
		case "content-ref":
			refURL, refOpen, refHasInner = args["url"], true, false
		case "endcontent-ref":
			// GitBook writes the link inside; a reference without one
			// gets it from its url, on the end tag's line (so that every
			// later line keeps its number for the link checker's reports).
			if refOpen && !refHasInner && refURL != "" {
				replacement = contentRefLink(refURL) + replacement
			}
			refOpen = false
		}
		if !supported {
			dropped = append(dropped, gitbookTag{Name: string(m[1]), Line: i + 1})
		}
		out.WriteString(replacement)
		out.WriteByte('\n')
		changed = true
	}
	if !changed {
		return body, nil
	}
	return out.Bytes(), dropped
}

// contentRefLink is the Markdown link a content reference without one
// inside shows: to the page it names, written as its text.
func contentRefLink(url string) string {
	text := strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`).Replace(url)
	dest := url
	if strings.ContainsAny(url, " ()<>") {
		dest = "<" + strings.NewReplacer("<", "%3C", ">", "%3E").Replace(url) + ">"
	}
	return "[" + text + "](" + dest + ")"
}

// fencedRanges returns the byte ranges of text's fenced code blocks, from
// the start of the opening fence line to the end of the closing one (or of
// the text, for a block never closed).
func fencedRanges(text []byte) [][2]int {
	if !bytes.Contains(text, []byte("```")) && !bytes.Contains(text, []byte("~~~")) {
		return nil
	}
	var ranges [][2]int
	var fence []byte
	start, pos := 0, 0
	for _, line := range bytes.SplitAfter(text, []byte("\n")) {
		trimmed := bytes.TrimLeft(line, " ")
		if f := fenceOf(trimmed); f != nil && len(line)-len(trimmed) <= 3 {
			switch {
			case fence == nil:
				fence, start = f, pos
			case bytes.HasPrefix(f, fence) && len(bytes.TrimSpace(trimmed[len(f):])) == 0:
				fence = nil
				ranges = append(ranges, [2]int{start, pos + len(line)})
			}
		}
		pos += len(line)
	}
	if fence != nil {
		ranges = append(ranges, [2]int{start, len(text)})
	}
	return ranges
}

// fenceOf returns the fence (``` or ~~~, three or more) a line opens with,
// or nil.
func fenceOf(line []byte) []byte {
	if len(line) < 3 || (line[0] != '`' && line[0] != '~') {
		return nil
	}
	n := 0
	for n < len(line) && line[n] == line[0] {
		n++
	}
	if n < 3 {
		return nil
	}
	return line[:n]
}
