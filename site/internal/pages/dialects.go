package pages

import (
	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/internal/dialect/admonitions"
	"github.com/docweave/docweave/site/internal/dialect/docusaurus"
	"github.com/docweave/docweave/site/internal/dialect/gitbook"
	"github.com/docweave/docweave/site/internal/dialect/github"
	"github.com/docweave/docweave/site/internal/dialect/hugo"
	"github.com/docweave/docweave/site/internal/dialect/material"
)

// dialects are the dialects every page is converted from, in the order
// they run. Hugo's shortcodes come first: they are read from the lexer's
// items of the page as written. GitBook's tags, Material's tabs and
// blocks, Docusaurus' MDX components and the admonitions then become
// shortcodes of the theme, which Hugo runs; GitHub's task boxes become
// named check boxes.
func dialects(known hugo.Set) []dialect.Dialect {
	return []dialect.Dialect{
		hugo.New(known),
		gitbook.Dialect{},
		material.Dialect{}, // before the admonitions: it drops Material's modifiers of their lines
		docusaurus.Dialect{},
		admonitions.Dialect{},
		github.Dialect{},
	}
}
