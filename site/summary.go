package site

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/docweave/docweave/internal/mdlinks"
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
// and SUMMARY.md itself is not rendered as a page.

// summaryItem matches one entry of a summary: a list item holding a link.
var summaryItem = regexp.MustCompile(`^\s*[*+-]\s+\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// summaryEntry is what a summary says of one page.
type summaryEntry struct {
	weight int
	title  string
}

// summaryOf reads the summary of unit u, if it has one (else its MkDocs
// nav, mkdocs.go): the entries by the content path of the page each names.
func (c *unitsOfContent) summaryOf(u links.Unit) map[string]summaryEntry {
	if s, ok := c.summaries[u.Root]; ok {
		return s
	}
	entries := map[string]summaryEntry{}
	c.summaries[u.Root] = entries
	var file string
	names := []string{"SUMMARY.md", "summary.md", "Summary.md"}
	if custom := c.gitbookConfigOf(u).Structure.Summary; custom != "" {
		names = []string{path.Clean(strings.TrimPrefix(custom, "/"))} // .gitbook.yaml's structure.summary
	}
	for _, name := range names {
		if c.pages[path.Join(u.Root, name)] {
			file = path.Join(u.Root, name)
			break
		}
	}
	if file == "" {
		// No SUMMARY.md: a MkDocs nav orders the menu the same way.
		nav, problem := c.mkdocsNavOf(u)
		c.summaries[u.Root] = nav
		if problem != nil {
			c.toolProblems[u.Root] = problem
		}
		return nav
	}
	if c.contentDir == "" {
		return entries
	}
	data, err := os.ReadFile(filepath.Join(c.contentDir, filepath.FromSlash(file)))
	if err != nil {
		return entries
	}
	for _, line := range strings.Split(string(data), "\n") {
		m := summaryItem.FindStringSubmatch(line)
		if m == nil || !mdlinks.Internal(m[2]) {
			continue
		}
		target, ok := u.Lookup(path.Join(u.Root, strings.TrimPrefix(mdlinks.Path(m[2]), "/")))
		if !ok || !strings.HasSuffix(strings.ToLower(target), ".md") {
			continue
		}
		if _, seen := entries[target]; !seen {
			entries[target] = summaryEntry{weight: len(entries) + 1, title: strings.TrimSpace(m[1])}
		}
	}
	return entries
}
