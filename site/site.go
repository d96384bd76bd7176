// Package site renders docweave's one static site with Hugo embedded as a
// library and docweave's own theme (package site/theme), so a build needs
// neither a hugo binary nor the network.
//
// A site is rendered in parts (parts.go). Each unit — a repository's
// documentation, or one version of a versioned repository — is rendered
// by a Hugo build of its own (RenderUnit), which keeps only the unit's
// pages and files and emits the unit's facts: its pages with their titles,
// URLs and taxonomy terms, and its search entries. The assembly
// (Assemble) renders the pages that span units — the home page, /docs/,
// taxonomy and term pages, the not-found page, the root pages of
// versioned repositories — from those facts, places every unit's files
// beside them, fills in the version switchers and writes the search index.
// Render does all of it in one process; the pipeline's stages do the same
// across processes, reusing every unit whose content address is already
// stored.
//
// Every page of the site is served under /docs/<content path>/, where a
// repository's documentation sits under content/<repo>/ (or
// content/<forge>/<repo>/, and with versioning one directory per version
// below that). A render adds only files of its own under
// <ProjectDir>/.docweave/ (the Hugo configuration, the theme, generated
// directory pages, checked copies of pages that needed changes, and
// Hugo's caches); it never edits the repositories' files.
//
// Documentation written for other tools must not stop the site: before
// Hugo runs, every Markdown file is checked with Hugo's own page lexer
// and converted from its tool's dialect (package pages), and what Hugo
// would refuse — unknown shortcodes, front matter it cannot use — is set
// right in a copy; a page that still fails while Hugo renders is shown
// with what broke it as text, or at last left out, and the build run
// again. Each case is an Issue in the Result. A unit that cannot render
// at all fails alone.
//
// This package holds the entry points and the render of a unit (parts.go
// splits a site into units, unit.go and render.go render one, culprits.go
// finds the pages that broke a build, validate.go checks the
// options, address.go names a unit's output, mdcopies.go writes its
// pages' Markdown copies). Only these are exported:
//
//	Render, RenderWhole, RenderWholeMinimal  a whole site (Options, Result)
//	RenderUnit                               one unit (UnitOptions, UnitResult)
//	Assemble                                 a site of rendered units
//	                                         (AssembleOptions, AssembledUnit,
//	                                         AssembleResult, PlacedSite,
//	                                         URLConflict: aliases of package
//	                                         assembly's types)
//	Spec, UnitAddress                        what a unit is rendered with and
//	                                         its content address
//	CheckAcrossUnits, MissingXrefs           links from one unit into another
//	                                         and by id, checked from the
//	                                         units' facts (crosslinks.go)
//	Repository, Version, Issue, the Issue…   the shared vocabulary (aliases
//	codes, EditURLPlaceholder,               of package model's)
//	LiveReloadPortParam
//
// Each other part has a package of its own under site/internal:
//
//	model        the repositories, versions, units, unit facts and issues
//	             every part shares
//	pages        a repository's Markdown files → neutral Markdown pages:
//	             checks, front matter, dialects, links, navigation
//	dialect      the Dialect interface; dialect/hugo, dialect/gitbook,
//	             dialect/github, dialect/material, dialect/admonitions
//	             (MkDocs and Docusaurus callouts), dialect/mkdocs,
//	             dialect/docusaurus: one package each, listed in
//	             pages/dialects.go
//	links        what a page's links name: in its unit, in another
//	             repository (original site, forge file, xref id)
//	mdcode       where a Markdown body's code is
//	rawsyntax    the source syntax a rendered page shows as text
//	linkcheck    the links and #fragments a unit's pages name, checked
//	             against rendered pages' ids (fragments.go, crosslinks.go)
//	mdcopy       a rendered page as Markdown, for tools (index.md beside
//	             index.html), and the llms.txt files listing them
//	sitemap      sitemap.xml and robots.txt
//	hugobuild    the machinery of one Hugo build in this process: its
//	             configuration, the content planned onto Hugo's sections,
//	             the build itself
//	assembly     one site of rendered units: the pages that span units,
//	             placing, version switchers, search index, redirects
//	searchindex  the site's search index from the units' records
//
// A page's path runs forward through them: pages prepares its file, the
// unit's render (this package) plans it onto sections and builds it with
// hugobuild, its facts and search entries go to assembly, which places it
// and writes searchindex's index.
//
// Hugo is driven through hugolib (LoadConfig, NewHugoSites, Build, Close)
// rather than through its command package: each render builds a fresh set of
// sites and closes it, so nothing of a rendered site outlives the call, and
// process-wide settings such as GOMAXPROCS are left alone.
package site

import (
	"io"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site/internal/model"
)

// Options says what to render and where.
type Options struct {
	// ProjectDir is the Hugo project root; its content/ directory is
	// already written by the caller.
	ProjectDir string
	// PublishDir is the absolute directory the HTML is written to. It must
	// be empty or absent: it is a staging directory the caller swaps in, and
	// a stale file from an earlier build must never be published.
	PublishDir string
	// Generator carries the site title, description, base URL, theme
	// parameters and taxonomies from the configuration.
	Generator config.Generator
	// Repositories lists the aggregated repositories for the home page and
	// the menu, in the order they are shown.
	Repositories []Repository
	// Logger receives docweave's and Hugo's log output; Hugo never writes to
	// stdout or stderr itself.
	Logger zerolog.Logger
	// TemplateMetrics, when set, has Hugo time every template it executes
	// (its templateMetrics setting) and gets the table after the build:
	// per template the cumulative, average and longest duration and the
	// number of executions. It is how the theme's cost is found (see
	// docweave-bench render-floor --template-metrics); a template's time
	// includes the templates it calls, and the first template to ask for a
	// page's content also pays for rendering its Markdown. Only a render in
	// one piece (RenderWhole, RenderWholeMinimal) writes it.
	TemplateMetrics io.Writer
}

// Repository is one aggregated repository as the site shows it (see
// model.Repository).
type Repository = model.Repository

// OriginalSite is where a repository's documentation was published before
// (model.OriginalSite).
type OriginalSite = model.OriginalSite

// Version is one documentation version of a repository (see
// model.Version).
type Version = model.Version

// EditURLPlaceholder is the part of Repository.EditURL replaced by a page's
// file path.
const EditURLPlaceholder = model.EditURLPlaceholder

// Result summarises a render for the build report.
type Result struct {
	// Pages is the number of the repositories' Markdown files rendered as
	// pages (generated directory pages are not counted, nor pages left out
	// because they could not render).
	Pages int
	// Files is the number of files written to PublishDir.
	Files int
	// Issues lists the problems of single pages that did not stop the
	// render: unknown shortcodes, front matter that was ignored, pages left
	// out. Sorted by Path, then Code.
	Issues []Issue
}
