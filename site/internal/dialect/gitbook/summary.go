package gitbook

import (
	"path"
	"regexp"
	"strings"

	"github.com/docweave/docweave/internal/mdlinks"
	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/internal/links"
)

// A GitBook space lists its pages in SUMMARY.md at its root: a nested
// list of links, in the order and with the titles of its sidebar.
//
//	* [Introduction](README.md)
//	* [Guide](guide/README.md)
//	  * [Installing](guide/install.md)
//
// When a unit has one, its entries give their pages a weight (the order)
// and a linkTitle (the sidebar title), which the theme's menu follows,
// and SUMMARY.md itself is not rendered as a page. A heading between the
// entries ("## Using it") starts a group of the sidebar: it names the
// folders whose pages all sit in it (see dialect.NavEntry's Group).
// GitBook's editor escapes Markdown characters in what it writes
// ("release\_notes/whats\_new.md"), links and titles alike; the escapes
// are read as the characters.

// summaryItem matches one entry of a summary: a list item holding a link.
var summaryItem = regexp.MustCompile(`^\s*[*+-]\s+\[((?:\\.|[^\]\\])+)\]\(((?:\\.|[^)\s\\])+)(?:\s+"[^"]*")?\)`)

// summaryGroup matches a heading of a summary below its title: a group.
var summaryGroup = regexp.MustCompile(`^ {0,3}#{2,6}\s+(.+?)(?:\s+#+)?\s*$`)

// markdownEscape matches a backslash escape of Markdown.
var markdownEscape = regexp.MustCompile("\\\\([!-/:-@\\[-`{-~])")

// SummaryFile is unit u's table of contents, in the space's root (g's
// root, else the unit's root): the file g names (its structure.summary)
// or else a SUMMARY.md, as a content path; "" when the unit has none.
func SummaryFile(u links.Unit, g Config) string {
	names := []string{"SUMMARY.md", "summary.md", "Summary.md"}
	if custom := g.Structure.Summary; custom != "" {
		names = []string{path.Clean(strings.TrimPrefix(custom, "/"))}
	}
	for _, name := range names {
		if f := path.Join(g.rootIn(u), name); u.Pages[f] {
			return f
		}
	}
	return ""
}

// IsSummaryFile reports whether rel is unit u's table of contents: the
// file g names, else the SUMMARY.md at the space's root.
func IsSummaryFile(u links.Unit, g Config, rel string) bool {
	if custom := g.Structure.Summary; custom != "" {
		return rel == path.Join(g.rootIn(u), path.Clean(strings.TrimPrefix(custom, "/")))
	}
	return path.Dir(rel) == g.rootIn(u) && strings.EqualFold(path.Base(rel), "SUMMARY.md")
}

// Summary reads a summary's entries (data is the file at content path
// file), by the content path of the page each names. Links are read
// from the summary's folder, the space's root.
func Summary(data []byte, file string, u links.Unit) map[string]dialect.NavEntry {
	entries := map[string]dialect.NavEntry{}
	dir, group := path.Dir(file), ""
	// open holds the entries the next one may be nested under: their
	// indentation and title, outermost first.
	type opened struct {
		indent int
		title  string
	}
	var open []opened
	for _, line := range strings.Split(string(data), "\n") {
		if g := summaryGroup.FindStringSubmatch(line); g != nil {
			group, open = unescape(g[1]), nil
			continue
		}
		m := summaryItem.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " \t"))
		for len(open) > 0 && open[len(open)-1].indent >= indent {
			open = open[:len(open)-1]
		}
		parent := ""
		if len(open) > 0 {
			parent = open[len(open)-1].title
		}
		title := strings.TrimSpace(unescape(m[1]))
		open = append(open, opened{indent, title})
		link := unescape(m[2])
		if !mdlinks.Internal(link) {
			continue
		}
		target, ok := u.Lookup(path.Join(dir, strings.TrimPrefix(mdlinks.Path(link), "/")))
		if !ok || !strings.HasSuffix(strings.ToLower(target), ".md") {
			continue
		}
		if _, seen := entries[target]; !seen {
			entries[target] = dialect.NavEntry{Weight: len(entries) + 1, Title: title, Group: group, Parent: parent}
		}
	}
	return entries
}

// unescape reads Markdown's backslash escapes as the characters.
func unescape(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	return markdownEscape.ReplaceAllString(s, "$1")
}
