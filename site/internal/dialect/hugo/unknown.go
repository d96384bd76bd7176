package hugo

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strings"
)

// tagForm is what becomes of a shortcode tag Hugo must not run as written.
type tagForm int

const (
	formCut      tagForm = iota // removed (a tag Hugo would refuse)
	formEscaped                 // shown as written, Hugo's escaped form
	formCode                    // shown as written, as inline code
	formReplaced                // replaced by the tag's with
)

// codeShortcode is the theme's shortcode that shows the content of an
// unknown paired shortcode as a labelled code block
// (layouts/_shortcodes/labelled-code.html).
const codeShortcode = "labelled-code"

// selfClosable are the theme's shortcodes that read their content when
// they have some and stand alone when they have none, as Hugo's
// documentation writes them: an opening tag never closed by name is
// one that stands alone, and is closed in place ("/>}}") instead of
// dropped.
var selfClosable = map[string]bool{"new-in": true, "deprecated-in": true}

// pairUnknown finds the tags of unknown shortcodes written as a pair, an
// opening tag and a closing tag of the same name, outside code, and
// decides what they become, in tags' form and with:
//
//   - both tags alone on their lines (the usual way to write a block):
//     the pair becomes the theme's labelled-code shortcode, so its content
//     shows as a code block labelled with the shortcode's name (for
//     Hugo's code-toggle, with the file it stands for, in its language),
//     and every tag in between is shown as written, as part of that code;
//   - otherwise both tags are shown as inline code and the content
//     between them stays text of the page.
//
// It returns, for each tag, whether it belongs to such a pair (or its
// code), so that checkShortcodes leaves it alone, and the names of the
// shortcodes whose content became code.
func pairUnknown(tags []shortcodeTag, known Set, inCode func(shortcodeTag) bool, src []byte) ([]bool, map[string]bool) {
	done := make([]bool, len(tags))
	blocks := map[string]bool{}
	var open []int
	for i, t := range tags {
		if done[i] || t.inline || inCode(t) || known.has(t.name) {
			continue
		}
		switch {
		case t.selfClosing:
		case !t.closing:
			open = append(open, i)
		default:
			for k := len(open) - 1; k >= 0; k-- {
				o := open[k]
				if !strings.EqualFold(tags[o].name, t.name) {
					continue
				}
				open = open[:k]
				done[o], done[i] = true, true
				if !aloneOnLine(src, tags[o]) || !aloneOnLine(src, t) || lineOf(src, tags[o].end) == lineOf(src, t.start) {
					tags[o].form, tags[i].form = formCode, formCode
					break
				}
				blocks[strings.ToLower(t.name)] = true
				label, lang := codeLabel(tags[o], src[tags[o].end:t.start])
				tags[o].form, tags[i].form = formReplaced, formReplaced
				tags[o].with = fmt.Sprintf("{{< %s label=%q lang=%q%s>}}", codeShortcode, label, lang,
					spaceKeepingLines(src[tags[o].start:tags[o].end]))
				tags[i].with = "{{< /" + codeShortcode + " >}}"
				for j := o + 1; j < i; j++ {
					done[j] = true
					tags[j].form = formEscaped
				}
				break
			}
		}
	}
	return done, blocks
}

// spaceKeepingLines is a space, and as many line breaks as tag holds, so
// that a tag written on several lines is replaced without moving the
// page's lines.
func spaceKeepingLines(tag []byte) string {
	return " " + strings.Repeat("\n", bytes.Count(tag, []byte("\n")))
}

// aloneOnLine reports whether nothing but spaces stands before the tag on
// its first line and after it on its last.
func aloneOnLine(src []byte, t shortcodeTag) bool {
	start := bytes.LastIndexByte(src[:t.start], '\n') + 1
	end := bytes.IndexByte(src[t.end:], '\n')
	if end < 0 {
		end = len(src) - t.end
	}
	return len(bytes.TrimSpace(src[start:t.start])) == 0 && len(bytes.TrimSpace(src[t.end:t.end+end])) == 0
}

func lineOf(src []byte, pos int) int { return bytes.Count(src[:pos], []byte("\n")) }

// codeLabel is the label and language of the code block an unknown paired
// shortcode becomes. Hugo's code-toggle shows its content (configuration
// or front matter) under the file it belongs to, as TOML, YAML and JSON:
// here it is shown once, in the language it is written in, labelled with
// that file ("hugo.toml" for file=hugo); any other shortcode is labelled
// with its name, its content plain text.
func codeLabel(t shortcodeTag, body []byte) (label, lang string) {
	if !strings.EqualFold(t.name, "code-toggle") {
		return t.name, ""
	}
	lang = dataLanguage(body)
	file := t.named["file"]
	switch {
	case file == "":
		return strings.ToUpper(lang), lang
	case path.Ext(file) == "":
		return file + "." + lang, lang
	}
	return file, lang
}

var (
	tomlLine = regexp.MustCompile(`(?m)^\s*(\[[^\]]*\]|[\w."'-]+\s*=)`)
	yamlLine = regexp.MustCompile(`(?m)^\s*([\w"'-][\w ."'-]*:(\s|$)|- )`)
)

// dataLanguage tells which of JSON, TOML and YAML a configuration is
// written in, as Hugo's code-toggle reads any of them: TOML unless it is
// clearly another.
func dataLanguage(body []byte) string {
	s := bytes.TrimSpace(body)
	switch {
	case bytes.HasPrefix(s, []byte("{")):
		return "json"
	case tomlLine.Match(s):
		return "toml"
	case yamlLine.Match(s):
		return "yaml"
	}
	return "toml"
}

// inlineCode is text as an inline code span: delimited by a run of
// backticks longer than any in it, with spaces when it starts or ends
// with one.
func inlineCode(text string) string {
	longest, run := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(text, "`") || strings.HasSuffix(text, "`") {
		return fence + " " + text + " " + fence
	}
	return fence + text + fence
}

// escapedTag is a tag in Hugo's escaped form ({{</* name */>}}), which
// Hugo prints as the tag as written.
func escapedTag(tag string) string {
	if len(tag) < 6 {
		return tag
	}
	return tag[:3] + "/*" + tag[3:len(tag)-3] + "*/" + tag[len(tag)-3:]
}

// inlineCodeFits reports whether the tag at t can be shown as inline code:
// it is on one line and not part of a link's destination (as in
// "[source]: <{{% eturl figure %}}>"), where it is shown as written.
func inlineCodeFits(src []byte, t shortcodeTag) bool {
	if bytes.IndexByte(src[t.start:t.end], '\n') >= 0 {
		return false
	}
	if t.start > 0 && (src[t.start-1] == '<' || src[t.start-1] == '(') {
		return false
	}
	return true
}

// featureTags rewrites the tags of the selfClosable shortcodes (new-in,
// deprecated-in) outside code so that Hugo shows them as written:
//
//   - an unquoted version is quoted: Hugo reads 1.10 as the number 1.1;
//   - an opening tag that no later closing tag of its name closes before
//     the next opening tag of its name is closed in place
//     ("{{< new-in 0.1 />}}"): written to stand alone, it would otherwise
//     take the page's content up to some other closing tag, or be dropped.
func featureTags(tags []shortcodeTag, known Set, inCode func(shortcodeTag) bool, src []byte) {
	for i, t := range tags {
		name := strings.ToLower(t.name)
		if !selfClosable[name] || !known.has(name) || t.closing || t.inline || inCode(t) {
			continue
		}
		closed := t.selfClosing
		for _, u := range tags[i+1:] {
			if closed || (strings.EqualFold(u.name, name) && !inCode(u)) {
				closed = closed || u.closing
				break
			}
		}
		a := t.arg0
		quote := a[1] > 0 && src[a[0]-1] != '"' && src[a[0]-1] != '`'
		if closed && !quote {
			continue
		}
		text := string(src[t.start:t.end])
		if quote {
			text = string(src[t.start:a[0]]) + `"` + string(src[a[0]:a[1]]) + `"` + string(src[a[1]:t.end])
		}
		if !closed {
			text = text[:len(text)-3] + "/" + text[len(text)-3:]
			tags[i].selfClosing = true
		}
		tags[i].form, tags[i].with = formReplaced, text
	}
}
