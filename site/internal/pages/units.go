package pages

import (
	"path"
	"slices"
	"strings"

	"github.com/docweave/docweave/docstree"
	"github.com/docweave/docweave/htmlsafe"
	"github.com/docweave/docweave/internal/mdlinks"
	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/internal/dialect/gitbook"
	"github.com/docweave/docweave/site/internal/links"
	"github.com/docweave/docweave/site/internal/model"
)

// unitsOfContent groups the content tree by unit: for a page, the files
// of the repository (or the version) it belongs to.
type unitsOfContent struct {
	repos []model.Repository
	pages map[string]bool
	files map[string]bool
	dirs  map[string]bool
	// contentDir is where the content is read (for GitBook summaries and
	// MkDocs navs); summaries holds each unit's, read once (see
	// summary.go), and toolProblems the unit's unreadable tool
	// configuration, reported with the first of its pages.
	contentDir   string
	summaries    map[string]map[string]dialect.NavEntry
	toolProblems map[string]*model.Issue
	gitbooks     map[string]gitbook.Config
	// gitbookRedirects holds each unit's .gitbook.yaml redirects by
	// target page (gitbookRedirectsTo).
	gitbookRedirects map[string]map[string][]string
	// referenced holds each unit's referenced files, listed once.
	referenced map[string][]string
	// categories holds the folders' Docusaurus categories (sectionnav.go).
	categories map[string]SectionNav
	// site is the rest of the site, where links may lead (package links).
	site *links.Site
	// ids holds, per unit root, the ids its pages declare (ids.go).
	ids map[string]map[string]string
	// addresses gives the URLs of the content's files.
	addresses *links.Addresses
}

func newUnitsOfContent(tree Tree, repos []model.Repository, contentDir, sitePath string) *unitsOfContent {
	set := func(list []string) map[string]bool {
		m := make(map[string]bool, len(list))
		for _, p := range list {
			m[p] = true
		}
		return m
	}
	pages := set(tree.Markdown)
	return &unitsOfContent{repos: repos, pages: pages, files: set(tree.Files), dirs: set(tree.Dirs), site: links.NewSite(repos, sitePath, pages),
		contentDir: contentDir, summaries: map[string]map[string]dialect.NavEntry{}, toolProblems: map[string]*model.Issue{}, gitbooks: map[string]gitbook.Config{},
		gitbookRedirects: map[string]map[string][]string{}}
}

// of returns the unit of page rel; false when no repository holds it.
func (c *unitsOfContent) of(rel string) (links.Unit, bool) {
	for _, r := range c.repos {
		rest, ok := strings.CutPrefix(rel, r.ContentPath+"/")
		if !ok {
			continue
		}
		root, source, slug := r.ContentPath, r.SourceURL, ""
		if len(r.Versions) > 0 {
			var found bool
			slug, _, found = strings.Cut(rest, "/")
			if !found {
				return links.Unit{}, false
			}
			root += "/" + slug
			source = ""
			for _, v := range r.Versions {
				if v.Slug == slug {
					source = v.SourceURL
				}
			}
		}
		return links.Unit{Root: root, DocRoots: r.DocRoots, SourceURL: source, Pages: c.pages, Files: c.files, Dirs: c.dirs,
			Referenced: c.referencedOf(root), Site: c.site, IDs: c.ids[root], Version: slug, Addr: c.addresses}, true
	}
	return links.Unit{}, false
}

// pageParams places the page rel's redirects in its unit's namespace
// and gives it its place in the authors' navigation. It returns the
// front matter parameters the page needs for them (none when it needs
// none) and the issues found.
func (c *unitsOfContent) pageParams(rel string, redirects []string) (map[string]any, []model.Issue) {
	u, ok := c.of(rel)
	if !ok {
		return nil, nil
	}
	params := map[string]any{}
	if e, ok := c.summaryOf(u)[rel]; ok {
		params["weight"], params["linkTitle"] = e.Weight, e.Title
	}
	if cat, ok := c.categories[path.Dir(rel)]; ok && isIndexPage(rel) {
		// The folder's own page stands for the folder in the menu.
		if cat.Weight != 0 {
			params["weight"] = cat.Weight
		}
		if cat.Title != "" {
			params["linkTitle"] = cat.Title
		}
	}
	redirects = append(slices.Clone(redirects), c.gitbookRedirectsTo(u, rel)...)
	var issues []model.Issue
	if p := c.toolProblems[u.Root]; p != nil {
		issues = append(issues, *p)
		c.toolProblems[u.Root] = nil // once per unit
	}
	if len(redirects) > 0 {
		aliases, problems := namespacedAliases(rel, u, redirects)
		for _, p := range problems {
			issues = append(issues, model.Issue{Code: model.IssueFrontMatterInvalid, Path: rel, Message: p})
		}
		if len(aliases) > 0 {
			params["aliases"] = aliases
		}
	}
	return params, issues
}

// pageLinks finds the links of the page rel's body (the Markdown Hugo is
// to render, whose first line is line bodyLine+1 of the file; written is
// the body as written when a dialect converted it), resolves each in its
// unit and returns the body with each destination that leads elsewhere
// on the site written as its URL, the issues of links that lead nowhere
// and the links to check after rendering. The body is parsed once, with
// goldmark, as Hugo's renderer will.
func (c *unitsOfContent) pageLinks(rel string, body []byte, bodyLine int, written []byte) ([]byte, []model.Issue, []links.Check) {
	u, ok := c.of(rel)
	if !ok {
		return body, nil, nil
	}
	found := findLinks(body)
	if written != nil {
		linesAsWritten(found, body, written)
	}
	r := links.Resolved(rel, found, bodyLine, u)
	return mdlinks.Rewrite(body, found, func(l mdlinks.Link) (string, bool) {
		if to, ok := r.URLs[l.Dest]; ok {
			return to, true
		}
		if !l.HTML && !htmlsafe.SafeURL(l.Dest, l.Image) {
			// What the theme's link and image templates wrote for such a
			// URL (html/template's mark of a value it refused).
			return unsafeURL, true
		}
		return "", false
	}), r.Issues, r.Checks
}

// unsafeURL stands for a Markdown destination whose scheme could run
// script or is no web address (javascript:, vbscript:, an unknown scheme;
// data: but for an image): the link leads nowhere.
const unsafeURL = "#ZgotmplZ"

// findLinks is mdlinks.Find, the one parse of a page's body by goldmark
// while it is prepared. A variable, so that a test can count the parses.
var findLinks = mdlinks.Find

// referencedOf lists the referenced files of the unit at root, once.
func (c *unitsOfContent) referencedOf(root string) []string {
	if list, ok := c.referenced[root]; ok {
		return list
	}
	if c.referenced == nil {
		c.referenced = map[string][]string{}
	}
	prefix := root + "/" + docstree.FilesDir + "/"
	list := []string{}
	for f := range c.files {
		if strings.HasPrefix(f, prefix) {
			list = append(list, f)
		}
	}
	c.referenced[root] = list
	return list
}
