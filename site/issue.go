package site

import (
	"fmt"
	"sort"
)

// Codes of the page issues Render reports. They are stable: the render stage
// turns them into build-report issues that alerts and scripts match on.
const (
	// IssueUnknownShortcode: the page uses a shortcode (or a GitBook tag)
	// the theme does not define. A shortcode's tags are shown as written
	// (a GitBook tag is dropped) and the text between them is kept, so the
	// page still renders.
	IssueUnknownShortcode = "UNKNOWN_SHORTCODE"
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
	// IssueToolConfigInvalid: a configuration file of the tool a
	// repository was written for (MkDocs' mkdocs.yml) could not be read;
	// the menu keeps its default order. Reported once per repository.
	IssueToolConfigInvalid = "TOOL_CONFIG_INVALID"
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

// sortIssues orders issues by path, then code, then message, so a report of
// unchanged content is identical from build to build.
func sortIssues(issues []Issue) {
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
