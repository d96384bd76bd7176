// Package mkdocs is the dialect of MkDocs sites' navigation: the nav of
// mkdocs.yml, which orders and names the menu. (Their admonitions are
// package admonitions'.)
package mkdocs

import (
	"fmt"
	"path"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/docweave/docweave/internal/mdlinks"
	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/internal/links"
)

// A MkDocs site lists its sidebar in the nav of mkdocs.yml, at the
// repository root (carried into the tree under docstree.ToolConfigDir):
//
//	nav:
//	  - Home: index.md
//	  - Using it:
//	      - usage/commands.md
//	      - Configuration: usage/config.md
//
// Paths are relative to the documentation directory. Like a GitBook
// SUMMARY.md (package gitbook), the entries give their pages a weight (the
// order, depth first) and, where the entry names one, a linkTitle.
// A section's title is its pages' group (dialect.NavEntry), which names
// the folders whose pages all sit in it; external links and unknown pages
// are passed over. Only nav is read; nothing else of the file is used.

// Nav reads the nav of a mkdocs.yml (data, the file name): the entries
// by the content path of the page each names in unit u, and the reason
// the file cannot order the menu ("" when none), as a sentence for the
// repository's issue.
func Nav(name string, data []byte, u links.Unit) (map[string]dialect.NavEntry, string) {
	entries := map[string]dialect.NavEntry{}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return entries, fmt.Sprintf("%s of the repository cannot be read, so its nav does not order the menu: %s", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	nav := navNode(&doc)
	if nav == nil {
		return entries, ""
	}
	if nav.Kind != yaml.SequenceNode {
		return entries, fmt.Sprintf("%s line %d: nav is not a list, so it does not order the menu", name, nav.Line)
	}
	walkNav(u, nav, "", entries)
	return entries, ""
}

// navNode finds the value of the top-level key nav.
func navNode(doc *yaml.Node) *yaml.Node {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "nav" {
			return m.Content[i+1]
		}
	}
	return nil
}

// walkNav records the pages of a nav list in order, depth first.
// group is the title of the innermost section holding list ("" at the top).
func walkNav(u links.Unit, list *yaml.Node, group string, entries map[string]dialect.NavEntry) {
	for _, item := range list.Content {
		switch item.Kind {
		case yaml.ScalarNode: // - page.md
			navPage(u, "", item.Value, group, entries)
		case yaml.MappingNode: // - Title: page.md, or - Section: [...]
			for i := 0; i+1 < len(item.Content); i += 2 {
				title, value := item.Content[i].Value, item.Content[i+1]
				switch value.Kind {
				case yaml.ScalarNode:
					navPage(u, title, value.Value, group, entries)
				case yaml.SequenceNode:
					walkNav(u, value, strings.TrimSpace(title), entries)
				}
			}
		}
	}
}

// navPage records one page of the nav, if it names a Markdown page of the
// unit.
func navPage(u links.Unit, title, target, group string, entries map[string]dialect.NavEntry) {
	if !mdlinks.Internal(target) {
		return
	}
	rel, ok := u.Lookup(path.Join(u.Root, strings.TrimPrefix(mdlinks.Path(target), "/")))
	if !ok || !strings.HasSuffix(strings.ToLower(rel), ".md") {
		return
	}
	if _, seen := entries[rel]; !seen {
		entries[rel] = dialect.NavEntry{Weight: len(entries) + 1, Title: strings.TrimSpace(title), Group: group}
	}
}
