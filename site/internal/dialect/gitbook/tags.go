// Package gitbook is the dialect of GitBook spaces: the block tags of its
// pages ({% hint %}, {% tabs %}, …), converted into the theme's
// shortcodes.
package gitbook

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/docweave/docweave/site/internal/mdcode"
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
// them. Only tags outside fenced code blocks are touched, only tags GitBook
// defines, and only where GitBook writes them: a line of its own, or the
// edges of a line (GitBook also reads "{% hint %}Text" and
// "text.{% endhint %}", and a caption after an embed's tag). A Liquid or
// Jinja example in a code block or in the middle of a sentence stays as
// written. Every line keeps its number.

// gitbookTagLine matches a line holding one tag: its name (with "end" for
// closing tags) and its arguments.
var gitbookTagLine = regexp.MustCompile(`^ {0,3}\{%-?\s*([a-z][a-z0-9-]*)\b` + gitbookTagArgs + `\s*-?%\}\s*$`)

// gitbookTagArgs matches the arguments of one tag: anything up to its
// closing "%}" (a "%" of a URL's escapes included).
const gitbookTagArgs = `((?:[^%]|%[^}])*?)`

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
	// A file becomes a download link card; an API operation (swagger,
	// openapi) a card of its method, path, parameters and responses (see
	// api.go).
	"file":    fileTag,
	"endfile": drop(true),
	// Blocks without an equivalent: the tags go, the text stays.
	"api-method":    drop(false),
	"endapi-method": drop(false),
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

// gitbookTag is a GitBook tag that was dropped without an equivalent, or
// converted with a loss its Message says.
type gitbookTag struct {
	Name    string
	Line    int // 1-based, in the body given to convertGitBookTags
	Message string
}

// blockOf is what becomes of the tags named name (nil for a name GitBook
// does not define).
func blockOf(name string) func(args map[string]string) (string, bool) {
	if f := gitbookBlocks[name]; f != nil {
		return f
	}
	return apiBlocks[name]
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
	// tag converts one tag of a known block, given its name and arguments,
	// found on line i; inner says whether the line has text beside it.
	tag := func(i int, name string, rawArgs []byte, inner bool) string {
		args := map[string]string{}
		for _, a := range gitbookArg.FindAllSubmatch(rawArgs, -1) {
			args[string(a[1])] = string(a[2])
		}
		replacement, supported := blockOf(name)(args)
		if msg := unreadSpec(name, args); msg != "" {
			dropped = append(dropped, gitbookTag{Name: name, Line: i + 1, Message: msg})
		}
		switch name {
		case "content-ref":
			refURL, refOpen, refHasInner = args["url"], true, inner
		case "endcontent-ref":
			// GitBook writes the link inside; a reference without one
			// gets it from its url, on the end tag's line (so that every
			// later line keeps its number for the link checker's reports).
			if refOpen && !refHasInner && !inner && refURL != "" {
				replacement = contentRefLink(refURL) + replacement
			}
			refOpen = false
		}
		if !supported {
			dropped = append(dropped, gitbookTag{Name: name, Line: i + 1})
		}
		return replacement
	}
	for i, line := range lines {
		trimmed := bytes.TrimLeft(line, " ")
		if f := mdcode.FenceOf(trimmed); f != nil && len(line)-len(trimmed) <= 3 {
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
		content := bytes.TrimRight(line, "\r\n")
		if m := gitbookTagLine.FindSubmatch(content); m != nil && blockOf(string(m[1])) != nil {
			out.WriteString(tag(i, string(m[1]), m[2], false))
			out.WriteByte('\n')
			changed = true
			continue
		}
		if converted, ok := gitbookEdgeTags(content, func(name string, args []byte) string { return tag(i, name, args, true) }); ok {
			out.WriteString(converted)
			out.Write(line[len(content):])
			changed = true
			continue
		}
		if refOpen && len(bytes.TrimSpace(line)) > 0 {
			refHasInner = true
		}
		out.Write(line)
	}
	if !changed {
		return body, nil
	}
	return out.Bytes(), dropped
}

// gitbookEdgeTags converts the tags of known blocks on a line that also
// holds text: an opening or end tag at its start, an end tag at its end,
// and anywhere on the line a block opened and closed on it (GitBook reads
// "See {% hint style="info" %}this{% endhint %}." as a callout) or an
// embed, which needs no end tag. A tag in a code span stays, and so does a
// lone tag in the middle of a sentence (talk about the tag). It returns
// false when the line has none, or is indented as code (four spaces or
// more: a Jinja template quoted in an indented block ends its lines with
// "{% endif %}" and the like).
func gitbookEdgeTags(content []byte, tag func(name string, args []byte) string) (string, bool) {
	if len(content)-len(bytes.TrimLeft(content, " ")) > 3 || bytes.HasPrefix(bytes.TrimLeft(content, " "), []byte("\t")) {
		return "", false
	}
	found := gitbookAnyTag.FindAllSubmatchIndex(content, -1)
	if len(found) == 0 {
		return "", false
	}
	spans := mdcode.CodeSpanRanges(content, nil)
	inSpan := func(pos int) bool {
		for _, r := range spans {
			if pos >= r[0] && pos < r[1] {
				return true
			}
		}
		return false
	}
	nameOf := func(m []int) string { return string(content[m[2]:m[3]]) }
	// pairedOnLine reports whether the opening tag found[k] has its end
	// tag later on the line.
	pairedOnLine := func(k int) bool {
		for _, m := range found[k+1:] {
			if nameOf(m) == "end"+nameOf(found[k]) {
				return true
			}
		}
		return false
	}
	converted := make([]bool, len(found))
	for k, m := range found {
		name := nameOf(m)
		if blockOf(name) == nil || inSpan(m[0]) {
			continue
		}
		atStart := len(bytes.TrimSpace(content[:m[0]])) == 0
		atEnd := len(bytes.TrimSpace(content[m[1]:])) == 0
		closesConverted := false
		for o := k - 1; o >= 0; o-- {
			if converted[o] && "end"+nameOf(found[o]) == name {
				closesConverted = true
				break
			}
		}
		switch {
		case atStart && (k == 0 || converted[k-1]), closesConverted, name == "embed",
			atEnd && strings.HasPrefix(name, "end"):
			converted[k] = true
		case !strings.HasPrefix(name, "end") && !liquidToo[name] && pairedOnLine(k):
			converted[k] = true
		}
	}
	var out strings.Builder
	last, any := 0, false
	for k, m := range found {
		if !converted[k] {
			continue
		}
		any = true
		out.Write(content[last:m[0]])
		repl := tag(nameOf(m), content[m[4]:m[5]])
		out.WriteString(repl)
		last = m[1]
		if repl == "" && len(bytes.TrimSpace(content[:m[0]])) == 0 {
			for last < len(content) && (content[last] == ' ' || content[last] == '\t') {
				last++
			}
		}
	}
	if !any {
		return "", false
	}
	out.Write(content[last:])
	return out.String(), true
}

// gitbookAnyTag matches a tag anywhere on a line.
var gitbookAnyTag = regexp.MustCompile(`\{%-?\s*([a-z][a-z0-9-]*)\b` + gitbookTagArgs + `\s*-?%\}`)

// liquidToo are GitBook tag names that Liquid and Jinja use as well: in
// the middle of a line they are a template's, not GitBook's.
var liquidToo = map[string]bool{"include": true, "raw": true, "code": true}

// contentRefLink is the Markdown link a content reference without one
// inside shows: to the page it names, written as its text.
func contentRefLink(url string) string { return markdownLink(url, url) }

// markdownLink is a Markdown link to url showing text, both escaped.
func markdownLink(text, url string) string {
	text = strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`).Replace(text)
	dest := url
	if strings.ContainsAny(url, " ()<>") {
		dest = "<" + strings.NewReplacer("<", "%3C", ">", "%3E").Replace(url) + ">"
	}
	return "[" + text + "](" + dest + ")"
}
