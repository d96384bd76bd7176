package docusaurus

import "github.com/docweave/docweave/site/internal/dialect"

// Dialect converts the MDX of Docusaurus pages (imports, Tabs, details,
// components) into Markdown and the theme's shortcodes. Its admonitions
// are package admonitions'; its @site/ paths are resolved with the links.
type Dialect struct{}

// Marked reports whether src may hold MDX that needs converting.
func (Dialect) Marked(src []byte) bool { return mayHaveMDX(src) }

// Convert converts the MDX of the page's body.
func (Dialect) Convert(p dialect.Page) ([]byte, []dialect.Note) { return convertMDX(p.Body()) }
