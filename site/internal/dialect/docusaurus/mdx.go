package docusaurus

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/internal/mdcode"
	"github.com/docweave/docweave/site/internal/model"
)

// Docusaurus reads its pages as MDX: Markdown with JavaScript imports and
// exports and JSX components, which its React build runs and Hugo would
// show as text:
//
//	import Tabs from '@theme/Tabs';
//
//	<Tabs groupId="os">
//	<TabItem value="linux" label="Linux" default>
//	Text.
//	</TabItem>
//	</Tabs>
//
// convertMDX turns what the reader saw into the theme's components,
// without running any of it: import and export statements (a block of
// lines starting with one, after a blank line) are removed; Tabs and
// TabItem become the theme's tabs (a TabItem's label, else the label the
// Tabs' values list gives its value, else its value); Admonition becomes
// a callout; <details> with its <summary> becomes Hugo's details, whose
// content is Markdown; an MDX comment {/* … */} goes. Any other component
// (a capitalised tag, <DocCardList />) is something only the site's React
// code can show: its tags are dropped, the text between them kept, and
// the page gets an issue naming it. Tags are converted on lines holding
// only tags, outside fenced code; a self-closing component in a sentence
// is dropped there too, outside code spans. Every line keeps its number.

// esmStart matches the first line of an import or export statement as
// MDX pages write them: an import from a quoted module (import X from
// '…'), a multi-line named import (import {), a module imported for its
// effect with a semicolon (import '…';), an export of a declaration. Go's
// import "fmt" and Python's import os, written outside fenced code (in a
// Hugo highlight shortcode), are not.
var esmStart = regexp.MustCompile(`^(?:import\s+[^'"\s].*\sfrom\s*['"][^'"]+['"];?\s*$|import\s+(?:type\s+)?\{[^}]*$|import\s+['"][^'"]+['"];\s*$|export\s+(?:default\b|const\b|let\b|var\b|function\b|async\s+function\b|class\b|\{|\*))`)

// esmWhole matches an import statement that ends on its line.
var esmWhole = regexp.MustCompile(`^import\s+(?:[^'"\s].*\sfrom\s*)?['"][^'"]+['"];?\s*$`)

// mdxComment matches a line holding only an MDX comment.
var mdxComment = regexp.MustCompile(`^\s*\{/\*.*\*/\}\s*$`)

// inlineComponent matches a self-closing component inside a line.
var inlineComponent = regexp.MustCompile(`<[A-Z][\w.]*(?:\s+[^<>]*?)?\s*/>`)

// mayHaveMDX is the cheap test before the conversion.
func mayHaveMDX(src []byte) bool {
	for _, mark := range mdxMarks {
		if bytes.Contains(src, mark) {
			return true
		}
	}
	return false
}

// mdxMarks are what a page with something to convert holds (the test runs
// on every page: no copy of it is made).
var mdxMarks = [][]byte{[]byte("import "), []byte("export "), []byte("<Tabs"), []byte("<TabItem"), []byte("<details"), []byte("<Admonition"), []byte("/>"), []byte("{/*")}

// mdxConverter holds the state of one page's conversion.
type mdxConverter struct {
	notes []dialect.Note
	// open are the shortcodes opened and not yet closed, innermost last,
	// and tabLabels the value→label lists of the open Tabs.
	open      []string
	tabLabels []map[string]string
	// pendingDetails is set between a <details> line and its summary.
	pendingDetails bool
	// summaryNext reports whether the next line that is not blank is a
	// <summary>, for a <details> line without one.
	summaryNext func() bool
}

// convertMDX returns body with its MDX constructs converted, and notes on
// the components it dropped.
func convertMDX(body []byte) ([]byte, []dialect.Note) {
	if !mayHaveMDX(body) {
		return body, nil
	}
	lines := strings.SplitAfter(string(body), "\n")
	inFence := mdcode.FenceTracker()
	c := &mdxConverter{}
	var out strings.Builder
	// prevBlank: the line before was blank; inESM: the line before began
	// or continued a statement that goes on; afterESM: it ended one.
	prevBlank, inESM, afterESM := true, false, false
	for i, line := range lines {
		c.summaryNext = func() bool {
			for _, l := range lines[i+1:] {
				if t := strings.TrimSpace(l); t != "" {
					return strings.HasPrefix(t, "<summary>") && strings.HasSuffix(t, "</summary>")
				}
			}
			return false
		}
		text := strings.TrimRight(line, "\r\n")
		eol := line[len(text):]
		if inFence(text) {
			out.WriteString(line)
			prevBlank, inESM, afterESM = false, false, false
			continue
		}
		blank := strings.TrimSpace(text) == ""
		switch {
		case (prevBlank || afterESM || inESM) && esmStart.MatchString(text):
			// A one-line import ends there; another statement goes on to
			// the next blank line, as MDX reads it.
			inESM = !esmWhole.MatchString(text)
			afterESM = !inESM
			out.WriteString(eol)
		case inESM && !blank:
			out.WriteString(eol)
		case mdxComment.MatchString(text):
			out.WriteString(eol)
			inESM, afterESM = false, false
		default:
			inESM, afterESM = false, false
			if converted, ok := c.tagLine(text, i+1); ok {
				out.WriteString(converted + eol)
			} else {
				out.WriteString(c.inline(text, i+1) + eol)
			}
		}
		prevBlank = blank
	}
	// Shortcodes left open would stop Hugo: they close after the page's
	// last line.
	result := out.String()
	for k := len(c.open) - 1; k >= 0; k-- {
		if !strings.HasSuffix(result, "\n") {
			result += "\n"
		}
		result += "{{< /" + c.open[k] + " >}}\n"
	}
	if result == string(body) {
		return body, c.notes
	}
	return []byte(result), c.notes
}

// inline removes the self-closing components of a line of text, outside
// code spans.
func (c *mdxConverter) inline(text string, line int) string {
	if !strings.Contains(text, "/>") {
		return text
	}
	spans := mdcode.CodeSpanRanges([]byte(text), nil)
	inSpan := func(pos int) bool {
		for _, r := range spans {
			if pos >= r[0] && pos < r[1] {
				return true
			}
		}
		return false
	}
	var out strings.Builder
	last := 0
	for _, m := range inlineComponent.FindAllStringIndex(text, -1) {
		if inSpan(m[0]) {
			continue
		}
		c.drop(text[m[0]:m[1]], line)
		out.WriteString(text[last:m[0]])
		last = m[1]
	}
	out.WriteString(text[last:])
	return out.String()
}

// drop notes a component that only the site's React code can show.
func (c *mdxConverter) drop(tag string, line int) {
	name := strings.TrimLeft(tag, "</")
	if i := strings.IndexAny(name, " \t/>"); i >= 0 {
		name = name[:i]
	}
	c.notes = append(c.notes, dialect.Note{Code: model.IssueUnknownShortcode, Line: line, Message: fmt.Sprintf(
		"MDX component <%s> is shown by the Docusaurus site's own code; docweave drops its tags and keeps the text between them", name)})
}

// tagLine converts a line holding only JSX or details tags. It returns
// false for any other line, which is kept as written.
func (c *mdxConverter) tagLine(text string, line int) (string, bool) {
	trimmed := strings.TrimSpace(text)
	if !strings.HasPrefix(trimmed, "<") || !strings.HasSuffix(trimmed, ">") {
		return "", false
	}
	tags, ok := splitTags(trimmed)
	if !ok {
		return "", false
	}
	pending := c.pendingDetails
	for _, t := range tags {
		if !t.component() && !t.isDetails() {
			return "", false
		}
		// A summary belongs to a details the dialect converts, or stays.
		switch {
		case t.name == "details" && !t.closing:
			pending = true
		case t.name == "summary" && !pending,
			t.name == "details" && t.closing && !pending && !slices.Contains(c.open, "details"):
			return "", false
		case t.name == "summary":
			pending = false
		}
	}
	indent := text[:len(text)-len(strings.TrimLeft(text, " \t"))]
	var out strings.Builder
	for k, t := range tags {
		out.WriteString(c.convertTag(t, line, k == len(tags)-1))
	}
	return indent + out.String(), true
}

// convertTag is what one tag of a tag line becomes.
// last says whether t ends its line.
func (c *mdxConverter) convertTag(t jsxTag, line int, last bool) string {
	switch {
	case t.name == "Tabs" && !t.closing:
		labels := valueLabels(t.attrs["values"])
		c.tabLabels = append(c.tabLabels, labels)
		c.open = append(c.open, "tabs")
		if g := t.attrs["groupId"]; g != "" {
			return "{{< tabs group=" + shortcodeString(g) + " >}}"
		}
		return "{{< tabs >}}"
	case t.name == "TabItem" && !t.closing:
		label := t.attrs["label"]
		if label == "" && len(c.tabLabels) > 0 {
			label = c.tabLabels[len(c.tabLabels)-1][t.attrs["value"]]
		}
		if label == "" {
			label = t.attrs["value"]
		}
		c.open = append(c.open, "tab")
		return "{{< tab title=" + shortcodeString(label) + " >}}"
	case t.name == "Admonition" && !t.closing:
		c.open = append(c.open, "notice")
		return "{{< notice " + strconv.Quote(strings.ToLower(t.attrs["type"])) + " " + strconv.Quote(t.attrs["title"]) + " >}}"
	case t.name == "details" && !t.closing && last && !c.summaryNext():
		// No summary follows: the browser's own word for one.
		c.open = append(c.open, "details")
		return `{{< details summary="Details" >}}`
	case t.name == "details" && !t.closing:
		c.pendingDetails = true
		return ""
	case t.name == "summary" && c.pendingDetails:
		c.pendingDetails = false
		c.open = append(c.open, "details")
		return "{{< details summary=" + strconv.Quote(t.text) + " >}}"
	case t.closing && (t.name == "Tabs" || t.name == "TabItem" || t.name == "Admonition" || t.name == "details"):
		return c.close(map[string]string{"Tabs": "tabs", "TabItem": "tab", "Admonition": "notice", "details": "details"}[t.name])
	case t.component() && (t.selfClosing || !t.closing):
		c.drop(t.raw, line)
	}
	return ""
}

// close closes the innermost open shortcode named name (and any left open
// inside it); a closing tag with nothing to close goes. A <details>
// closed without a summary opens and closes at once.
func (c *mdxConverter) close(name string) string {
	if name == "details" && c.pendingDetails {
		c.pendingDetails = false
		return `{{< details summary="Details" >}}{{< /details >}}`
	}
	for k := len(c.open) - 1; k >= 0; k-- {
		if c.open[k] != name {
			continue
		}
		out := ""
		for j := len(c.open) - 1; j >= k; j-- {
			out += "{{< /" + c.open[j] + " >}}"
			if c.open[j] == "tabs" {
				c.tabLabels = c.tabLabels[:len(c.tabLabels)-1]
			}
		}
		c.open = c.open[:k]
		return out
	}
	return ""
}

// shortcodeString quotes s as a shortcode argument: Hugo reads a
// backquoted argument raw, so only a backquote itself must go.
func shortcodeString(s string) string {
	return "`" + strings.ReplaceAll(strings.TrimSpace(s), "`", "'") + "`"
}

// valueEntry reads one {label: '…', value: '…'} entry of a Tabs' values
// list, in either order.
var valueEntry = regexp.MustCompile(`\{\s*(label|value)\s*:\s*(?:'([^']*)'|"([^"]*)")\s*,\s*(label|value)\s*:\s*(?:'([^']*)'|"([^"]*)")\s*,?\s*\}`)

// valueLabels reads a Tabs' values={[…]} list as data: value → label.
func valueLabels(values string) map[string]string {
	out := map[string]string{}
	for _, m := range valueEntry.FindAllStringSubmatch(values, -1) {
		kv := map[string]string{m[1]: m[2] + m[3], m[4]: m[5] + m[6]}
		out[kv["value"]] = kv["label"]
	}
	return out
}
