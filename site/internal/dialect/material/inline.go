package material

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/kyokomi/emoji/v2"

	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/internal/dialect/material/icons"
	"github.com/docweave/docweave/site/internal/mdcode"
	"github.com/docweave/docweave/site/internal/model"
)

var (
	// mark is ==text== and insert ^^text^^ (pymdownx.mark and caret),
	// not inside a word ("x==y and z==w" is no mark).
	mark   = regexp.MustCompile(`(^|[^\w=])==([^=\s](?:[^=\n]*?[^=\s])?)==($|[^\w=])`)
	insert = regexp.MustCompile(`(^|[^\w^])\^\^([^\^\s](?:[^\^\n]*?[^\^\s])?)\^\^($|[^\w^])`)
	// inlineAttrs is an attribute list right after a link, an image, a
	// reference or an icon ("](url){ .md-button }", "][ref]{: .x }",
	// ":material-heart:{ .beat }").
	inlineAttrs = regexp.MustCompile(`[)\]:]\{:?[ \t]*` + attrTokens + `[ \t]*\}`)
	// shortcodeTag is a Hugo shortcode tag, which the inline conversions
	// leave alone.
	shortcodeTag = regexp.MustCompile(`\{\{[<%].*?[%>]\}\}`)
)

// convertInline converts the inline constructs of body outside code
// (fenced blocks at any indentation, code spans) and shortcode tags:
// attribute lists after links, marks, insertions, icons and emoji. None
// adds a line. It returns notes for icon codes no set has.
func convertInline(body []byte) ([]byte, []dialect.Note) {
	text := string(body)
	protected := protectedRanges(text)
	var out strings.Builder
	var notes []dialect.Note
	pos, line := 0, 1
	emit := func(end int) {
		chunk := text[pos:end]
		converted, n := convertChunk(chunk, line)
		out.WriteString(converted)
		notes = append(notes, n...)
		line += strings.Count(chunk, "\n")
		pos = end
	}
	for _, r := range protected {
		if r[0] > pos {
			emit(r[0])
		}
		out.WriteString(text[r[0]:r[1]])
		line += strings.Count(text[r[0]:r[1]], "\n")
		pos = r[1]
	}
	emit(len(text))
	return []byte(out.String()), notes
}

// protectedRanges are the byte ranges of text left as written, in order:
// fenced code, code spans and shortcode tags.
func protectedRanges(text string) [][2]int {
	var fenced [][2]int
	var code fences
	start := 0
	for _, l := range strings.SplitAfter(text, "\n") {
		if code.in(strings.TrimRight(l, "\n")) {
			if n := len(fenced); n > 0 && fenced[n-1][1] == start {
				fenced[n-1][1] = start + len(l)
			} else {
				fenced = append(fenced, [2]int{start, start + len(l)})
			}
		}
		start += len(l)
	}
	all := append(fenced, mdcode.CodeSpanRanges([]byte(text), fenced)...)
	for _, m := range shortcodeTag.FindAllStringIndex(text, -1) {
		all = append(all, [2]int{m[0], m[1]})
	}
	// Sort and merge.
	for i := 1; i < len(all); i++ {
		for j := i; j > 0 && all[j][0] < all[j-1][0]; j-- {
			all[j], all[j-1] = all[j-1], all[j]
		}
	}
	var merged [][2]int
	for _, r := range all {
		if n := len(merged); n > 0 && r[0] < merged[n-1][1] {
			merged[n-1][1] = max(merged[n-1][1], r[1])
			continue
		}
		merged = append(merged, r)
	}
	return merged
}

// convertChunk converts a run of text outside code that starts on line.
func convertChunk(chunk string, line int) (string, []dialect.Note) {
	if strings.ContainsAny(chunk, "{") {
		chunk = convertInlineAttrs(chunk)
	}
	if strings.Contains(chunk, "==") {
		chunk = mark.ReplaceAllString(chunk, "$1<mark>$2</mark>$3")
	}
	if strings.Contains(chunk, "^^") {
		chunk = insert.ReplaceAllString(chunk, "$1<ins>$2</ins>$3")
	}
	if !strings.Contains(chunk, ":") {
		return chunk, nil
	}
	var notes []dialect.Note
	var b strings.Builder
	last := 0
	for _, m := range colonCode.FindAllStringIndex(chunk, -1) {
		if m[0] > 0 && isWordByte(chunk[m[0]-1]) {
			continue
		}
		code := chunk[m[0]+1 : m[1]-1]
		html, known := iconHTML(code, chunk[:m[0]], chunk[m[1]:])
		if html == "" {
			continue
		}
		if !known {
			notes = append(notes, dialect.Note{Code: model.IssueIconUnknown, Line: line + strings.Count(chunk[:m[0]], "\n"),
				Message: fmt.Sprintf("icon :%s: is in none of the icon sets docweave bundles; shown as an empty box named %q", code, iconName(code))})
		}
		b.WriteString(chunk[last:m[0]])
		b.WriteString(html)
		last = m[1]
	}
	b.WriteString(chunk[last:])
	return b.String(), notes
}

func isWordByte(c byte) bool {
	return c == ':' || c == '/' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

var emojiCodes = sync.OnceValue(emoji.CodeMap)

// iconHTML is what the code (without its colons) becomes between before
// and after: an icon set's icon as inline SVG (decorative, hidden from
// screen readers, unless it is a link's whole text: then it is the link's
// name), an emoji as its character, an icon code no set has as an empty
// box with its name ("" and false for a code that is neither). known is
// false for that box.
func iconHTML(code, before, after string) (html string, known bool) {
	if !icons.IsIconCode(code) {
		if e, ok := emojiCodes()[":"+code+":"]; ok {
			return strings.TrimSpace(e), true
		}
		return "", true
	}
	name := iconName(code)
	attrs := `class="icon" aria-hidden="true" focusable="false"`
	if strings.HasSuffix(before, "[") && strings.HasPrefix(after, "](") {
		attrs = `class="icon" role="img" aria-label="` + name + `" focusable="false"`
	}
	if svg, ok := icons.SVG(code, attrs); ok {
		return `<span class="twemoji">` + svg + `</span>`, true
	}
	return `<span class="icon-unknown" role="img" aria-label="` + name + `" title="` + name + `"></span>`, false
}

// iconName is an icon code as words: "octicons-file-code-16" is "file
// code", the set and the size dropped.
func iconName(code string) string {
	for _, p := range []string{"fontawesome-brands-", "fontawesome-solid-", "fontawesome-regular-", "material-", "octicons-", "simple-"} {
		code = strings.TrimPrefix(code, p)
	}
	words := strings.Split(code, "-")
	if n := len(words); n > 1 && (words[n-1] == "16" || words[n-1] == "24" || words[n-1] == "12") {
		words = words[:n-1]
	}
	return strings.Join(words, " ")
}

// convertInlineAttrs drops the attribute lists after links and images,
// but for buttons: a link with the class md-button is wrapped in a span
// of its classes, which the theme styles as a button.
func convertInlineAttrs(chunk string) string {
	ms := inlineAttrs.FindAllStringSubmatchIndex(chunk, -1)
	if ms == nil {
		return chunk
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		tokens := chunk[m[2]:m[3]]
		end := m[0] + 1 // the link ends with its ) or ]
		if !hasClass(tokens, "md-button") || chunk[m[0]] == ':' {
			b.WriteString(chunk[last:end])
			last = m[1]
			continue
		}
		start := linkStart(chunk, m[0])
		if start < last {
			b.WriteString(chunk[last:end])
			last = m[1]
			continue
		}
		var classes []string
		for _, t := range strings.Fields(tokens) {
			if strings.HasPrefix(t, ".md-button") {
				classes = append(classes, t[1:])
			}
		}
		b.WriteString(chunk[last:start])
		b.WriteString(`<span class="` + strings.Join(classes, " ") + `">` + chunk[start:end] + `</span>`)
		last = m[1]
	}
	b.WriteString(chunk[last:])
	return b.String()
}

// linkStart finds the "[" opening the link whose destination or
// reference ends at end (its ")" or "]"), or -1.
func linkStart(s string, end int) int {
	// Back over the destination "(…)" or reference "[…]" to the text's "]".
	i := end
	if s[end] == ')' {
		i = strings.LastIndex(s[:end], "](")
	} else {
		i = strings.LastIndex(s[:end], "][")
	}
	if i < 0 {
		return -1
	}
	depth := 0
	for j := i; j >= 0; j-- {
		switch s[j] {
		case ']':
			depth++
		case '[':
			depth--
			if depth == 0 {
				if j > 0 && s[j-1] == '!' {
					return j - 1
				}
				return j
			}
		}
	}
	return -1
}
