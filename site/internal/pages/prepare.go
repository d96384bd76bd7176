// Package pages turns a repository's Markdown files into neutral Markdown
// pages for the theme's Hugo: each page is read once, lexed with Hugo's
// page lexer, its front matter checked, its shortcodes, code spans
// and dialects converted (dialects.go lists them), its links resolved and
// its place in its tool's navigation given, and written to a checked copy
// when anything changed. When Hugo still cannot render a page, the page's
// fallback shows what broke it as text (fallback.go).
package pages

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/docweave/docweave/htmlsafe"
	"github.com/docweave/docweave/site/internal/dialect/hugo"
	"github.com/docweave/docweave/site/internal/links"
	"github.com/docweave/docweave/site/internal/model"
)

// Prepared is a render's pages as Hugo is to read them: which are left
// out, which are read from their checked copy (under pagesDir) instead of
// their file, and the issues found. A render's build attempts share it.
type Prepared struct {
	Excluded  map[string]bool // pages left out
	Rewritten map[string]bool // pages rendered from their checked copy
	Issues    []model.Issue
	// Sections is what the authors' navigation says of the folders, by
	// content path: the title and place of a folder without a page of its
	// own (see sectionnav.go).
	Sections map[string]SectionNav
	// Links are, per page, the links to check once the pages are rendered
	// (links.Check: fragments, links out of the unit), with their lines.
	Links map[string][]links.Check
	// IDs are the pages' stable ids (front matter id), by page file.
	IDs map[string]string

	contentDir, pagesDir string
	fallbacks            map[string]*pageFallback // pages Hugo could not render as written
}

// Prepare reads every Markdown file of tree (under contentDir) once,
// converts it from its dialects into neutral Markdown for the theme's
// Hugo (shortcodes, front matter, links, navigation), and writes the
// pages that needed changes to their checked copies under pagesDir,
// never touching the files themselves. sitePath is the site's path below
// its host ("/"), where links to other units' pages start.
func Prepare(contentDir, pagesDir string, tree Tree, repos []model.Repository, sitePath string, themeFS fs.FS) (*Prepared, error) {
	known, err := hugo.Known(themeFS)
	if err != nil {
		return nil, err
	}
	pageDialects := dialects(known)
	p := &Prepared{Excluded: map[string]bool{}, Rewritten: map[string]bool{}, Links: map[string][]links.Check{}, contentDir: contentDir, pagesDir: pagesDir}
	units := newUnitsOfContent(tree, repos, contentDir, sitePath)
	files := &repositoryFiles{units: units, roots: map[string]*os.Root{}}
	defer files.close()
	p.Issues = append(p.Issues, units.loadCategories()...)
	var idIssues []model.Issue
	var slugs map[string]string
	if units.ids, p.IDs, slugs, idIssues, err = units.pageIDs(tree.Markdown); err != nil {
		return nil, err
	}
	units.addresses = links.NewAddresses(sitePath, units.pages, slugs)
	p.Issues = append(p.Issues, idIssues...)
	for _, rel := range tree.Markdown {
		src, err := os.ReadFile(filepath.Join(contentDir, filepath.FromSlash(rel)))
		if err != nil {
			return nil, fmt.Errorf("read page %s: %w", rel, err)
		}
		sanitized := false
		if untrustedPage(rel, repos) {
			if safe := htmlsafe.SanitizeMarkdown(src); !bytes.Equal(safe, src) {
				src, sanitized = safe, true
			}
		}
		check := inspectPageIn(rel, src, pageDialects, files.in(rel))
		p.Issues = append(p.Issues, check.issues...)
		if check.rewritten == nil && sanitized {
			check.rewritten = src
		}
		if u, ok := units.of(rel); ok && units.isSummaryFile(u, rel) && len(units.summaryOf(u)) > 0 {
			p.Excluded[rel] = true // GitBook's table of contents orders the menu; it is no page
			continue
		}
		if !check.broken {
			final := check.rewritten
			if final == nil {
				final = src
			}
			body, issues, checks := units.pageLinks(rel, final[check.bodyStart:], check.bodyLine, check.writtenBody)
			p.Issues = append(p.Issues, issues...)
			if len(checks) > 0 {
				p.Links[rel] = checks
			}
			params, issues := units.pageParams(rel, check.redirects)
			p.Issues = append(p.Issues, issues...)
			switch {
			case len(params) > 0:
				if out, ok := withParams(body, check.frontMatter, 0, params); ok {
					check.rewritten = out
				}
			case !bytes.Equal(body, final[check.bodyStart:]):
				check.rewritten = append(final[:check.bodyStart:check.bodyStart], body...)
			}
		}
		switch {
		case check.broken:
			p.Excluded[rel] = true
		case check.rewritten != nil:
			dst := filepath.Join(p.pagesDir, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return nil, fmt.Errorf("write checked copy of %s: %w", rel, err)
			}
			if err := os.WriteFile(dst, check.rewritten, 0o644); err != nil {
				return nil, fmt.Errorf("write checked copy of %s: %w", rel, err)
			}
			p.Rewritten[rel] = true
		}
	}
	p.Sections = units.sectionNavs()
	return p, nil
}

// ShowAsText takes the next fallback step for page rel, which Hugo could
// not render (msg is Hugo's message, shorten makes it readable): it writes the page's new checked
// copy and returns the warning naming the line, in the file as written,
// and the construct. It returns false when no step is left.
func (p *Prepared) ShowAsText(rel, msg string, shorten func(msg string) string) (model.Issue, bool) {
	if p.fallbacks == nil {
		p.fallbacks = map[string]*pageFallback{}
	}
	fb := p.fallbacks[rel]
	if fb == nil {
		fb = &pageFallback{}
		p.fallbacks[rel] = fb
	}
	original, err := os.ReadFile(filepath.Join(p.contentDir, filepath.FromSlash(rel)))
	if err != nil {
		return model.Issue{}, false
	}
	page := original
	copyPath := filepath.Join(p.pagesDir, filepath.FromSlash(rel))
	if p.Rewritten[rel] {
		if page, err = os.ReadFile(copyPath); err != nil {
			return model.Issue{}, false
		}
	}
	step, ok := fb.next(page, namedLine(msg, copyPath, filepath.Join(p.contentDir, filepath.FromSlash(rel))))
	if !ok {
		return model.Issue{}, false
	}
	if err := os.MkdirAll(filepath.Dir(copyPath), 0o755); err != nil {
		return model.Issue{}, false
	}
	if err := os.WriteFile(copyPath, step.page, 0o644); err != nil {
		return model.Issue{}, false
	}
	p.Rewritten[rel] = true
	// The copy's front matter may differ from the file's (checked, JSON,
	// with parameters added); its body's lines are the file's.
	line := max(1, step.line-bodyLine(page)+bodyLine(original))
	return model.Issue{Code: model.IssueShownAsText, Path: rel, Message: fmt.Sprintf(
		"line %d: %s: Hugo could not render the page as written (%s)", line, step.construct, shorten(msg))}, true
}

// untrustedPage reports whether a page (slash path under content/) belongs
// to an untrusted repository.
func untrustedPage(rel string, repos []model.Repository) bool {
	for _, r := range repos {
		if r.Untrusted && strings.HasPrefix(rel, r.ContentPath+"/") {
			return true
		}
	}
	return false
}

// Tree is the content directory as found on disk: what a render
// needs to plan its sections, read once per render.
type Tree struct {
	// Dirs lists the directories (slash paths relative to content/, "."
	// for the root), hidden ones and their contents left out.
	Dirs []string
	// Markdown lists the Markdown files (slash paths relative to content/).
	Markdown []string
	// Files lists every other file (slash paths relative to content/).
	Files []string
}
