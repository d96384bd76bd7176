package admonitions

import "github.com/docweave/docweave/site/internal/dialect"

// Dialect converts MkDocs' and Docusaurus' admonitions into the theme's
// callouts.
type Dialect struct{}

// Marked reports whether src may hold an admonition.
func (Dialect) Marked(src []byte) bool { return mayHaveAdmonitions(src) }

// Convert converts the admonitions of the page's body.
func (Dialect) Convert(p dialect.Page) ([]byte, []dialect.Note) {
	return convertAdmonitions(p.Body()), nil
}
