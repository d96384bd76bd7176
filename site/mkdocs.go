package site

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/docweave/docweave/docstree"
	"github.com/docweave/docweave/internal/mdlinks"
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
// SUMMARY.md (summary.go), the entries give their pages a weight (the
// order, depth first) and, where the entry names one, a linkTitle.
// Sections without a page of their own, external links and unknown pages
// are passed over. Only nav is read; nothing else of the file is used.

// mkdocsNavOf reads the nav of unit u's mkdocs.yml, when it has one: the
// entries by the content path of the page each names, and the problem
// that made the file unreadable ("" when none).
func (c *unitsOfContent) mkdocsNavOf(u links.Unit) (map[string]summaryEntry, *Issue) {
	entries := map[string]summaryEntry{}
	if c.contentDir == "" {
		return entries, nil
	}
	for _, name := range docstree.ToolConfigFiles {
		rel := path.Join(u.Root, docstree.ToolConfigDir, name)
		data, err := os.ReadFile(filepath.Join(c.contentDir, filepath.FromSlash(rel)))
		if err != nil {
			continue
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return entries, &Issue{Code: IssueToolConfigInvalid, Path: rel,
				Message: fmt.Sprintf("%s of the repository cannot be read, so its nav does not order the menu: %s", name, strings.TrimPrefix(err.Error(), "yaml: "))}
		}
		nav := navNode(&doc)
		if nav == nil {
			return entries, nil
		}
		if nav.Kind != yaml.SequenceNode {
			return entries, &Issue{Code: IssueToolConfigInvalid, Path: rel,
				Message: fmt.Sprintf("%s line %d: nav is not a list, so it does not order the menu", name, nav.Line)}
		}
		c.walkNav(u, nav, entries)
		return entries, nil
	}
	return entries, nil
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
func (c *unitsOfContent) walkNav(u links.Unit, list *yaml.Node, entries map[string]summaryEntry) {
	for _, item := range list.Content {
		switch item.Kind {
		case yaml.ScalarNode: // - page.md
			c.navPage(u, "", item.Value, entries)
		case yaml.MappingNode: // - Title: page.md, or - Section: [...]
			for i := 0; i+1 < len(item.Content); i += 2 {
				title, value := item.Content[i].Value, item.Content[i+1]
				switch value.Kind {
				case yaml.ScalarNode:
					c.navPage(u, title, value.Value, entries)
				case yaml.SequenceNode:
					c.walkNav(u, value, entries)
				}
			}
		}
	}
}

// navPage records one page of the nav, if it names a Markdown page of the
// unit.
func (c *unitsOfContent) navPage(u links.Unit, title, target string, entries map[string]summaryEntry) {
	if !mdlinks.Internal(target) {
		return
	}
	rel, ok := u.Lookup(path.Join(u.Root, strings.TrimPrefix(mdlinks.Path(target), "/")))
	if !ok || !strings.HasSuffix(strings.ToLower(rel), ".md") {
		return
	}
	if _, seen := entries[rel]; !seen {
		entries[rel] = summaryEntry{weight: len(entries) + 1, title: strings.TrimSpace(title)}
	}
}
