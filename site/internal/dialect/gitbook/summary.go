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
// and SUMMARY.md itself is not rendered as a page.

// summaryItem matches one entry of a summary: a list item holding a link.
var summaryItem = regexp.MustCompile(`^\s*[*+-]\s+\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// SummaryFile is unit u's table of contents, the file .gitbook.yaml
// names (custom, its structure.summary) or else a SUMMARY.md at its
// root, as a content path; "" when the unit has none.
func SummaryFile(u links.Unit, custom string) string {
	names := []string{"SUMMARY.md", "summary.md", "Summary.md"}
	if custom != "" {
		names = []string{path.Clean(strings.TrimPrefix(custom, "/"))}
	}
	for _, name := range names {
		if u.Pages[path.Join(u.Root, name)] {
			return path.Join(u.Root, name)
		}
	}
	return ""
}

// IsSummaryFile reports whether rel is unit u's table of contents: the
// file .gitbook.yaml names (custom), else the SUMMARY.md at the unit's
// root.
func IsSummaryFile(u links.Unit, custom, rel string) bool {
	if custom != "" {
		return rel == path.Join(u.Root, path.Clean(strings.TrimPrefix(custom, "/")))
	}
	return path.Dir(rel) == u.Root && strings.EqualFold(path.Base(rel), "SUMMARY.md")
}

// Summary reads a summary's entries (data is the file), by the content
// path of the page each names.
func Summary(data []byte, u links.Unit) map[string]dialect.NavEntry {
	entries := map[string]dialect.NavEntry{}
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
			entries[target] = dialect.NavEntry{Weight: len(entries) + 1, Title: strings.TrimSpace(m[1])}
		}
	}
	return entries
}
