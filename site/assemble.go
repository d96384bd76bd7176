package site

import (
	"context"
	"io/fs"

	"github.com/docweave/docweave/site/internal/assembly"
	"github.com/docweave/docweave/site/theme"
)

// AssembleOptions says what makes up a site and where to publish it (see
// assembly.Options).
type AssembleOptions = assembly.Options

// AssembledUnit is one rendered unit, as the assembly takes it (see
// assembly.RenderedUnit).
type AssembledUnit = assembly.RenderedUnit

// AssembleResult summarises an assembly (see assembly.Result).
type AssembleResult = assembly.Result

// PlacedSite describes what a publish directory holds, so that the next
// assembly into it changes only what differs (see assembly.PlacedSite).
type PlacedSite = assembly.PlacedSite

// URLConflict is a URL two repositories claim; the first in configuration
// order keeps it (see assembly.URLConflict).
type URLConflict = assembly.URLConflict

// Assemble makes a site of its rendered units: it renders the pages that
// span units — the home page, /docs/, forge directories, the root pages of
// versioned repositories, taxonomy and term pages and the not-found page —
// with the theme's style sheet and scripts, places every unit's files
// beside them, fills in the version switchers and writes the search index
// of all units (package assembly).
func Assemble(ctx context.Context, opts AssembleOptions) (AssembleResult, error) {
	return assemble(ctx, opts, theme.FS())
}

// assemble is Assemble with the theme as a parameter (see render).
func assemble(ctx context.Context, opts AssembleOptions, themeFS fs.FS) (AssembleResult, error) {
	if err := validateRepositories(opts.Repositories); err != nil {
		return AssembleResult{}, err
	}
	return assembly.Assemble(ctx, opts, themeFS)
}
