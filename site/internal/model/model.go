// Package model holds the vocabulary every part of a render shares: the
// repositories a site shows, their versions and units, the facts a unit's
// render hands the assembly, and the issues a render reports about single
// pages. It has no behaviour of its own beyond listing units and ordering
// issues, so every other package of site/ can depend on it.
package model

import (
	"fmt"
	"sort"
	"time"
)

// Repository is one aggregated repository as the site shows it.
type Repository struct {
	// Name is the repository name from the configuration.
	Name string
	// Forge is the forge the repository belongs to, or "" when content
	// paths are not namespaced by forge.
	Forge string
	// ContentPath is where its documentation sits under content/, such as
	// "myrepo" or "github/myrepo"; the pages are served under
	// /docs/<ContentPath>/.
	ContentPath string
	// EditURL, when set, gives every page of the repository an "Edit this
	// page" link: the placeholder {path} is replaced by the page's file path
	// relative to ContentPath, e.g.
	// "https://github.com/o/r/edit/main/docs/{path}". It must be an http(s)
	// URL without credentials; "" means the forge is not known and pages get
	// no edit link.
	EditURL string
	// Description is the sentence of the repository's card on the front
	// page: the configured one, or, when that is empty, the first
	// paragraph of its root page (filled in by the assembly from the
	// unit's facts).
	Description string
	// Updated is when the repository's documentation last changed: the
	// time of the newest commit built (of any version); zero if unknown.
	// Only the front page shows it, so it is not part of a unit's address.
	Updated time.Time
	// Versions lists the repository's documentation versions when versioning
	// is enabled, in the order the switcher shows them (the default version
	// first, then newest first); empty means the repository is not versioned and
	// renders exactly as today.
	//
	// A versioned repository has each version's documentation under
	// content/<ContentPath>/<Slug>/ and nothing else directly under
	// content/<ContentPath>/; its pages are served under
	// /docs/<ContentPath>/<Slug>/, and /docs/<ContentPath>/ redirects to the
	// default version (see site/internal/hugobuild/versionroots.go).
	Versions []Version
	// Untrusted marks a repository whose authors must not be able to run
	// script on the site (repositories[].trusted: false): the raw HTML of
	// its pages is sanitized before Hugo sees them (package htmlsafe).
	Untrusted bool
	// DocRoots are the repository's documentation roots as repository
	// paths ("docs"): a link written from the repository's root into one
	// of them is a link into its documentation (see package links).
	DocRoots []string
	// SourceURL, when set, is the forge's page of a file of the repository
	// at the branch built, with {path} for the file's repository path: a
	// link to a file outside the documentation roots leads there. "" when
	// the forge is not known (such links are left as written and
	// reported).
	SourceURL string
	// WebURL is the repository's address on its forge
	// (https://github.com/org/repo), "" when not known: a link written as
	// the forge's page of one of its files leads to that page here.
	WebURL string
	// OriginalSite is the site the repository's documentation was
	// published on before, nil when not configured: links written as its
	// URLs lead to the pages here (package links).
	OriginalSite *OriginalSite
}

// OriginalSite is repositories[].original_site: the site's address and
// which folder of the repository it published under which URL path
// prefix ("/docs/" → "docs").
type OriginalSite struct {
	URL   string
	Paths map[string]string
}

// Version is one documentation version of a repository: a branch or a tag
// whose documentation tree the render stage wrote under
// content/<ContentPath>/<Slug>/.
type Version struct {
	// Name is the branch or tag name as in Git, e.g. "main", "v1.1.0" or
	// "feature/x"; readers see it in the version switcher and in search
	// results.
	Name string
	// Slug is the version's directory under content/<ContentPath>/ and its
	// URL segment, e.g. "feature-x". The caller guarantees unique,
	// URL-safe slugs; Render refuses others with an error naming them.
	Slug string
	// Default marks the repository's default version, the one
	// /docs/<ContentPath>/ leads to; exactly one per versioned repository.
	Default bool
	// Tag is true for a tag, false for a branch.
	Tag bool
	// Commit is the full commit hash the version was built from, passed on
	// to the site configuration for templates and tools that show it.
	Commit string
	// EditURL is Repository.EditURL for this version's ref: the pattern of
	// the edit links of the version's pages ("" for no edit links).
	EditURL string
	// SourceURL is Repository.SourceURL for this version's branch or tag.
	SourceURL string
}

// EditURLPlaceholder is the part of Repository.EditURL replaced by a page's
// file path.
const EditURLPlaceholder = "{path}"

// Codes of the page issues Render reports. They are stable: the render stage
// turns them into build-report issues that alerts and scripts match on.
const (
	// IssueUnknownShortcode: the page uses a shortcode (or a GitBook tag)
	// the theme does not define. A shortcode's tags are shown as written
	// (a GitBook tag is dropped) and the text between them is kept, so the
	// page still renders.
	IssueUnknownShortcode = "UNKNOWN_SHORTCODE"
	// IssueRawSyntax: the rendered page shows an authoring tool's source
	// syntax as text outside code (a shortcode, a GitBook tag, an alert,
	// tab, admonition or icon marker, an MDX import): a construct no
	// dialect converted. One issue per page and kind.
	IssueRawSyntax = "RAW_SYNTAX"
	// IssueShortcodeInvalid: a tag of a known shortcode is used in a way
	// Hugo refuses (an opening tag that is never closed, a closing tag
	// without an opening tag). The tag is dropped, the text kept.
	IssueShortcodeInvalid = "SHORTCODE_INVALID"
	// IssueFrontMatterInvalid: the page's front matter, or one key of it,
	// could not be used (not parsable, a date that is not a date, a key
	// that would move the page out of its repository). The page renders
	// without it.
	IssueFrontMatterInvalid = "FRONT_MATTER_INVALID"
	// IssueShownAsText: Hugo could not render the page as written, so the
	// construct that broke it (a shortcode tag, a line, or at last the
	// whole body) is shown as text and the rest renders as usual. The page
	// keeps its URL and menu entry; the message names the line and the
	// construct.
	IssueShownAsText = "CONSTRUCT_SHOWN_AS_TEXT"
	// IssuePageRenderFailed: the page could not be rendered even with
	// what broke it shown as text, and was left out of the site; every
	// other page was rendered.
	IssuePageRenderFailed = "PAGE_RENDER_FAILED"
	// IssueIndexShadowed: a page that would take another page's URL, not
	// rendered (Hugo would write one over the other): an index file
	// beside its directory's _index file, which is the directory's page,
	// or a page X.md beside a folder X/ with pages of its own, whose page
	// takes the same URL.
	IssueIndexShadowed = "INDEX_SHADOWED"
	// IssueLinkUnresolved: a Markdown link or image on the page leads to
	// no page or file of its repository's documentation (or outside its
	// documentation roots). It is left as written; the message names the
	// line.
	IssueLinkUnresolved = "LINK_UNRESOLVED"
	// IssueLinkFragmentMissing: a link's #fragment names no element of
	// the page it leads to (none of the ids its rendered HTML has).
	IssueLinkFragmentMissing = "LINK_FRAGMENT_MISSING"
	// IssueToolConfigInvalid: a configuration file of the tool a
	// repository was written for (MkDocs' mkdocs.yml) could not be read;
	// the menu keeps its default order. Reported once per repository.
	IssueToolConfigInvalid = "TOOL_CONFIG_INVALID"
	// IssueIconUnknown: the page names an icon (":material-…:",
	// ":octicons-…:", ":fontawesome-…:", ":simple-…:") that none of the
	// icon sets docweave bundles has; an empty box named after it shows
	// in its place.
	IssueIconUnknown = "ICON_UNKNOWN"
	// IssueSnippetNotIncluded: an MkDocs snippet (--8<-- "file") was not
	// included: the file is missing, outside the page's repository, too
	// large, or past the limits of nesting and count. Its line is left
	// empty; the message names the file and the line.
	IssueSnippetNotIncluded = "SNIPPET_NOT_INCLUDED"
	// IssueIncludeUnresolved: a shortcode that includes another file of
	// the repository (Hugo's include and readfile) names none: a path that
	// finds no file, leads out of the repository or names a file over the
	// size limit. The tag is shown as written; the message names the line.
	IssueIncludeUnresolved = "INCLUDE_UNRESOLVED"
	// IssueXrefDuplicateID: two pages of one repository version declare
	// the same id in front matter; the message names both files. The
	// first (in path order) keeps the id. An error.
	IssueXrefDuplicateID = "XREF_DUPLICATE_ID"
)

// Issue is a problem with one page that did not stop the render.
type Issue struct {
	// Code is one of the Issue* constants.
	Code string
	// Path is the page's file, as a slash path relative to the project's
	// content/ directory (so it starts with the repository's ContentPath).
	Path string
	// Message says what happened and what the site shows instead.
	Message string
}

// String renders the issue for logs and test failures.
func (i Issue) String() string {
	return fmt.Sprintf("%s %s: %s", i.Code, i.Path, i.Message)
}

// SortIssues orders issues by path, then code, then message, so a report of
// unchanged content is identical from build to build.
func SortIssues(issues []Issue) {
	sort.SliceStable(issues, func(a, b int) bool {
		x, y := issues[a], issues[b]
		if x.Path != y.Path {
			return x.Path < y.Path
		}
		if x.Code != y.Code {
			return x.Code < y.Code
		}
		return x.Message < y.Message
	})
}
