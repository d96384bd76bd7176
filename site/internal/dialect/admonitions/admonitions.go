// Package admonitions is the dialect of MkDocs' and Docusaurus' callouts
// (admonitions): it turns them into the theme's notice and details
// shortcodes.
package admonitions

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	"github.com/docweave/docweave/site/internal/mdcode"
)

// Documentation written for MkDocs and Docusaurus marks its callouts in
// plain text, which Hugo would show as written:
//
//	!!! warning "Back up first"        :::tip[Faster builds]
//	    Indented content.              Content.
//	                                   :::
//	??? note "Collapsed"
//	    Shown on demand.
//
// convertAdmonitions turns them into the theme's callouts (the notice
// shortcode) and, for MkDocs' collapsible ??? blocks, Hugo's details
// shortcode. Only blocks starting on a line of their own, outside fenced
// code, are touched, so an example in a code block stays as written.

// mkdocsOpen matches an MkDocs admonition's first line: its marker, type
// and optional quoted title.
var mkdocsOpen = regexp.MustCompile(`^(!!!|\?\?\?\+?)[ \t]+([A-Za-z][\w-]*)(?:[ \t]+"([^"]*)")?[ \t]*$`)

// docusaurusOpen matches a Docusaurus admonition's first line: its
// indentation (in a list item), run of colons, type and optional title
// ([Title] or the rest of the line).
var docusaurusOpen = regexp.MustCompile(`^([ \t]*)(:{3,})[ \t]*([A-Za-z][\w-]*)(?:\[([^\]]*)\]|[ \t]+(.*?))?[ \t]*$`)

// mayHaveAdmonitions is the cheap test before the conversion.
func mayHaveAdmonitions(src []byte) bool {
	return bytes.Contains(src, []byte("!!!")) || bytes.Contains(src, []byte("???")) || bytes.Contains(src, []byte(":::"))
}

// convertAdmonitions returns body with its MkDocs and Docusaurus
// admonitions as shortcodes (body itself when it has none).
func convertAdmonitions(body []byte) []byte {
	if !mayHaveAdmonitions(body) {
		return body
	}
	lines := strings.SplitAfter(string(body), "\n")
	inFence := mdcode.FenceTracker()
	var out strings.Builder
	changed := false
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trimmed := strings.TrimRight(line, "\r\n")
		if inFence(trimmed) {
			out.WriteString(line)
			continue
		}
		if m := mkdocsOpen.FindStringSubmatch(trimmed); m != nil {
			var inner []string
			j := i + 1
			for ; j < len(lines); j++ {
				l := strings.TrimRight(lines[j], "\r\n")
				if strings.TrimSpace(l) == "" {
					inner = append(inner, "")
					continue
				}
				if !strings.HasPrefix(l, "    ") && !strings.HasPrefix(l, "\t") {
					break
				}
				inner = append(inner, strings.TrimPrefix(strings.TrimPrefix(l, "\t"), "    "))
			}
			for len(inner) > 0 && inner[len(inner)-1] == "" {
				inner = inner[:len(inner)-1]
				j--
			}
			out.WriteString(callout(m[1] != "!!!", m[2], m[3], strings.Join(inner, "\n")))
			i = j - 1
			changed = true
			continue
		}
		if m := docusaurusOpen.FindStringSubmatch(trimmed); m != nil {
			indent, closing := m[1], m[2]
			j := i + 1
			for ; j < len(lines); j++ {
				if strings.TrimSpace(lines[j]) == closing {
					break
				}
			}
			if j == len(lines) {
				out.WriteString(line) // never closed: not an admonition
				continue
			}
			var inner []string
			for _, l := range lines[i+1 : j] {
				inner = append(inner, strings.TrimPrefix(strings.TrimRight(l, "\r\n"), indent))
			}
			title := m[4]
			if title == "" {
				title = m[5]
			}
			block := callout(false, m[3], title, string(convertAdmonitions([]byte(strings.Join(inner, "\n")))))
			out.WriteString(indentLines(block, indent))
			i = j
			changed = true
			continue
		}
		out.WriteString(line)
	}
	if !changed {
		return body
	}
	return []byte(out.String())
}

// callout writes one admonition as a shortcode: the theme's notice, or
// Hugo's details for a collapsible one.
func callout(collapsible bool, kind, title, inner string) string {
	if collapsible {
		summary := title
		if summary == "" {
			summary = strings.ToUpper(kind[:1]) + kind[1:]
		}
		return "{{< details summary=" + strconv.Quote(summary) + " >}}\n" + inner + "\n{{< /details >}}\n"
	}
	return "{{< notice " + strconv.Quote(strings.ToLower(kind)) + " " + strconv.Quote(title) + " >}}\n" + inner + "\n{{< /notice >}}\n"
}

// indentLines puts indent before every line of block that is not blank,
// so that an admonition in a list item stays in it.
func indentLines(block, indent string) string {
	if indent == "" {
		return block
	}
	lines := strings.SplitAfter(block, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			lines[i] = indent + l
		}
	}
	return strings.Join(lines, "")
}
