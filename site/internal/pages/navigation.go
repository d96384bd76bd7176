package pages

import (
	"os"
	"path"
	"path/filepath"

	"github.com/docweave/docweave/docstree"
	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/internal/dialect/gitbook"
	"github.com/docweave/docweave/site/internal/dialect/mkdocs"
	"github.com/docweave/docweave/site/internal/links"
	"github.com/docweave/docweave/site/internal/model"
)

// A unit's tool files — GitBook's SUMMARY.md and .gitbook.yaml, MkDocs'
// mkdocs.yml — are read here once per unit and kept; what they say is
// read by the dialect packages.

// summaryOf reads the summary of unit u, if it has one (else its MkDocs
// nav): the entries by the content path of the page each names.
func (c *unitsOfContent) summaryOf(u links.Unit) map[string]dialect.NavEntry {
	if s, ok := c.summaries[u.Root]; ok {
		return s
	}
	entries := map[string]dialect.NavEntry{}
	c.summaries[u.Root] = entries
	file := gitbook.SummaryFile(u, c.gitbookConfigOf(u))
	if file == "" {
		// No SUMMARY.md: a MkDocs nav orders the menu the same way.
		nav, problem := c.mkdocsNavOf(u)
		c.summaries[u.Root] = nav
		if problem != nil {
			c.toolProblems[u.Root] = problem
		}
		return nav
	}
	if c.contentDir == "" {
		return entries
	}
	data, err := os.ReadFile(filepath.Join(c.contentDir, filepath.FromSlash(file)))
	if err != nil {
		return entries
	}
	entries = gitbook.Summary(data, file, u)
	c.summaries[u.Root] = entries
	return entries
}

// mkdocsNavOf reads the nav of unit u's mkdocs.yml, when it has one: the
// entries by the content path of the page each names, and the problem
// that made the file unreadable (nil when none).
func (c *unitsOfContent) mkdocsNavOf(u links.Unit) (map[string]dialect.NavEntry, *model.Issue) {
	entries := map[string]dialect.NavEntry{}
	if c.contentDir == "" {
		return entries, nil
	}
	for _, name := range docstree.ToolConfigFiles {
		rel := path.Join(u.Root, docstree.ToolConfigDir, name)
		data, err := os.ReadFile(filepath.Join(c.contentDir, filepath.FromSlash(rel)))
		if err != nil {
			continue
		}
		nav, problem := mkdocs.Nav(name, data, u)
		if problem != "" {
			return nav, &model.Issue{Code: model.IssueToolConfigInvalid, Path: rel, Message: problem}
		}
		return nav, nil
	}
	return entries, nil
}

// gitbookConfigOf reads unit u's .gitbook.yaml, once; a file that cannot
// be read is recorded as the unit's tool problem and read as empty.
func (c *unitsOfContent) gitbookConfigOf(u links.Unit) gitbook.Config {
	if g, ok := c.gitbooks[u.Root]; ok {
		return g
	}
	var g gitbook.Config
	defer func() { c.gitbooks[u.Root] = g }()
	if c.contentDir == "" {
		return g
	}
	rel := path.Join(u.Root, docstree.ToolConfigDir, gitbook.ConfigFile)
	data, err := os.ReadFile(filepath.Join(c.contentDir, filepath.FromSlash(rel)))
	if err != nil {
		return g
	}
	g, problem := gitbook.ParseConfig(data)
	if problem != "" {
		c.toolProblems[u.Root] = &model.Issue{Code: model.IssueToolConfigInvalid, Path: rel, Message: problem}
	}
	return g
}

// gitbookRedirectsTo returns the redirects of unit u's .gitbook.yaml that
// lead to page rel, as alias paths from the repository's root ("/help").
// The redirects are resolved once per unit, by target page.
func (c *unitsOfContent) gitbookRedirectsTo(u links.Unit, rel string) []string {
	byTarget, ok := c.gitbookRedirects[u.Root]
	if !ok {
		byTarget = c.gitbookConfigOf(u).RedirectsByTarget(u)
		c.gitbookRedirects[u.Root] = byTarget
	}
	return byTarget[rel]
}

// isSummaryFile reports whether rel is unit u's table of contents.
func (c *unitsOfContent) isSummaryFile(u links.Unit, rel string) bool {
	return gitbook.IsSummaryFile(u, c.gitbookConfigOf(u), rel)
}
