package htmlsafe

import (
	"bytes"
	"encoding/json"
	"sort"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// maxPasses bounds the rounds of SanitizeMarkdown. A round only removes
// markup, so a page is stable after two or three; the bound is a guard.
const maxPasses = 8

// md parses like Hugo's goldmark setup: GitHub Flavored Markdown,
// footnotes, definition lists, typographer and heading attributes.
var md = goldmark.New(
	goldmark.WithExtensions(extension.GFM, extension.Footnote, extension.DefinitionList, extension.Typographer),
	goldmark.WithParserOptions(parser.WithAttribute(), parser.WithAutoHeadingID()),
)

// SanitizeMarkdown returns the page with its raw HTML sanitized and its
// links to script URLs made plain text (see the package documentation).
// Front matter (YAML between ---, TOML between +++, or a JSON object) is
// kept as it is. The result is itself Markdown; sanitizing it again
// changes nothing.
func SanitizeMarkdown(src []byte) []byte {
	head, body := splitFrontMatter(src)
	for range maxPasses {
		next := sanitizeOnce(body)
		if bytes.Equal(next, body) {
			break
		}
		body = next
	}
	if stillUnsafe(body) {
		// Not reached in practice (the fuzz target looks for it): give up
		// on the page's markup rather than publish script.
		body = []byte(escapeText(string(body)))
	}
	out := make([]byte, 0, len(head)+len(body))
	return append(append(out, head...), body...)
}

// edit replaces src[start:end].
type edit struct {
	start, end int
	with       []byte
}

// sanitizeOnce parses body once and applies the edits of every unsafe
// node it finds.
func sanitizeOnce(body []byte) []byte {
	edits := findEdits(body)
	if len(edits) == 0 {
		return body
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		if e.start < last {
			continue // overlapping: the next pass sees it again
		}
		out.Write(body[last:e.start])
		out.Write(e.with)
		last = e.end
	}
	out.Write(body[last:])
	return out.Bytes()
}

// findEdits walks the parsed page: raw HTML is sanitized, links and images
// to unsafe URLs are escaped.
func findEdits(body []byte) []edit {
	doc := md.Parser().Parse(text.NewReader(body))
	var edits []edit
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch node := n.(type) {
		case *ast.HTMLBlock:
			segs := node.Lines().Sliced(0, node.Lines().Len())
			if node.HasClosure() {
				segs = append(segs, node.ClosureLine)
			}
			edits = append(edits, rewriteSegments(body, segs)...)
		case *ast.RawHTML:
			edits = append(edits, rewriteSegments(body, node.Segments.Sliced(0, node.Segments.Len()))...)
		case *ast.Link:
			if !SafeURL(string(node.Destination), false) {
				edits = append(edits, escapeOpener(body, node.Pos(), '['))
			}
		case *ast.Image:
			if !SafeURL(string(node.Destination), true) {
				edits = append(edits, escapeOpener(body, node.Pos(), '['))
			}
		case *ast.AutoLink:
			if !SafeURL(string(node.URL(body)), false) {
				edits = append(edits, escapeOpener(body, node.Pos(), '<'))
			}
		}
		return ast.WalkContinue, nil
	})
	return edits
}

// rewriteSegments replaces the source of a raw HTML node (its segments)
// with the sanitized fragment. Segments that follow each other directly
// are one range; segments separated by container markers (a blockquote's
// "> ", a list item's indentation) get the fragment on the first line,
// joined into one line, and are emptied otherwise, so the containers stay
// intact.
func rewriteSegments(body []byte, segs []text.Segment) []edit {
	if len(segs) == 0 {
		return nil
	}
	var frag []byte
	contiguous := true
	for i, s := range segs {
		frag = append(frag, s.Value(body)...)
		if i > 0 && s.Start != segs[i-1].Stop {
			contiguous = false
		}
	}
	clean := sanitizeHTML(frag)
	if bytes.Equal(clean, frag) {
		return nil
	}
	first, last := segs[0], segs[len(segs)-1]
	if contiguous {
		return []edit{{first.Start, last.Stop, clean}}
	}
	line := bytes.ReplaceAll(bytes.TrimRight(clean, "\n"), []byte("\n"), []byte(" "))
	edits := []edit{{first.Start, first.Stop, appendNewline(line, first.Value(body))}}
	for _, s := range segs[1:] {
		edits = append(edits, edit{s.Start, s.Stop, appendNewline(nil, s.Value(body))})
	}
	return edits
}

// appendNewline keeps the line break a segment ended with.
func appendNewline(line, original []byte) []byte {
	if bytes.HasSuffix(original, []byte("\n")) {
		return append(append([]byte(nil), line...), '\n')
	}
	return line
}

// escapeOpener puts a backslash before the '[' of a link or image (or the
// '<' of an autolink) at or just after pos, so Markdown reads the whole
// construct as text. A node without a position is not expected; it is
// left to stillUnsafe.
func escapeOpener(body []byte, pos int, opener byte) edit {
	for i := pos; i >= 0 && i < len(body) && i <= pos+1; i++ {
		if body[i] == opener {
			return edit{i, i, []byte{'\\'}}
		}
	}
	return edit{start: -1, end: -1}
}

// stillUnsafe reports whether a page still has raw HTML that is not
// already sanitized, or a link to an unsafe URL.
func stillUnsafe(body []byte) bool {
	return len(findEdits(body)) > 0
}

// splitFrontMatter separates a page's front matter (kept as it is) from its
// Markdown body.
func splitFrontMatter(src []byte) (head, body []byte) {
	for _, delim := range []string{"---", "+++"} {
		open := []byte(delim + "\n")
		if !bytes.HasPrefix(src, open) && !bytes.HasPrefix(src, []byte(delim+"\r\n")) {
			continue
		}
		rest := src[len(delim)+1:]
		if src[len(delim)] == '\r' {
			rest = src[len(delim)+2:]
		}
		for off := 0; off < len(rest); {
			end := bytes.IndexByte(rest[off:], '\n')
			line := rest[off:]
			if end >= 0 {
				line = rest[off : off+end]
			}
			// Only the delimiter Hugo ends front matter with: taking more
			// for front matter than Hugo does would leave HTML unsanitized.
			if t := string(bytes.TrimRight(line, "\r \t")); t == delim {
				cut := len(src) - len(rest) + off + len(line)
				if end >= 0 {
					cut++
				}
				return src[:cut], src[cut:]
			}
			if end < 0 {
				break
			}
			off += end + 1
		}
		return nil, src // unterminated: not front matter
	}
	if bytes.HasPrefix(src, []byte("{")) {
		dec := json.NewDecoder(bytes.NewReader(src))
		var v map[string]any
		if err := dec.Decode(&v); err == nil {
			cut := int(dec.InputOffset())
			return src[:cut], src[cut:]
		}
	}
	return nil, src
}
