package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/gohugoio/hugo/parser/metadecoders"
	"github.com/gohugoio/hugo/parser/pageparser"

	"github.com/docweave/docweave/internal/mdlinks"
)

// Documentation is written for a forge, where a link names a file of the
// repository: relative (../guide/setup.md), from the repository's root or
// from the documentation root (GitBook's /guide/setup.md), percent-encoded
// or with backslash escapes (securing%5c_nats/tls.md is securing_nats/
// tls.md), and README.md, index.md or _index.md standing for their
// directory. The theme's link render hook resolves a relative link to a
// page file with Hugo's GetPage. resolveLinks reads a page's links before
// Hugo runs, finds what each one names in the unit's tree, and gives the
// hook, for every link it cannot take as written, the relative path it
// can (the page parameter docweave_links); a link that names nothing is
// left as written and reported with its line.

// linksParam is the page parameter the render hook reads: a list of
// [destination as written, destination to resolve] pairs. A list, not a
// map, because Hugo lower-cases the keys of page parameters.
const linksParam = "docweave_links"

// unitFiles is what a page's links may lead to: the files of its unit,
// as slash paths relative to content/.
type unitFiles struct {
	// root is the unit's directory under content/ (a repository's content
	// path, or a version's directory below it).
	root string
	// docRoots are the repository's documentation roots, as repository
	// paths ("docs"): a link from the repository's root into one of them
	// is a link into the unit.
	docRoots []string
	// sourceURL is the forge's page of a repository file (with {path}),
	// where a link to a file outside the documentation roots leads; "" when
	// the forge is not known.
	sourceURL string
	pages     map[string]bool // Markdown files
	files     map[string]bool // every other file
	dirs      map[string]bool
	// referenced are the unit's referenced files (see referenced.go).
	referenced []string
}

// pageLink is one link or image of a page.
type pageLink struct {
	dest string
	line int
}

// findLinks lists the links and images of a Markdown body with the line
// each starts on (counted in body; add the front matter's lines).
func findLinks(body []byte) []pageLink {
	found := mdlinks.Find(body)
	out := make([]pageLink, len(found))
	for i, l := range found {
		out[i] = pageLink{dest: l.Dest, line: l.Line}
	}
	return out
}

// linkTarget is what a link names: a page file, a directory's page or a
// file, as a slash path relative to content/.
type linkTarget struct {
	path string
	ok   bool
}

// resolveLinks finds, for each link of the page rel (a slash path
// relative to content/), what it names in u. It returns the pairs the
// render hook needs and the issues of links that lead nowhere; lineShift
// is added to the body's line numbers (the front matter's lines).
func resolveLinks(rel string, body []byte, lineShift int, u unitFiles) ([][2]string, []Issue) {
	var pairs [][2]string
	var issues []Issue
	seen := map[string]bool{}
	for _, l := range findLinks(body) {
		if seen[l.dest] || !internalLink(l.dest) {
			continue
		}
		seen[l.dest] = true
		target, outside, repoPath := u.resolve(rel, l.dest)
		switch {
		case target.ok:
			if to := relativeLink(path.Dir(rel), target.path) + linkSuffix(l.dest); to != l.dest {
				pairs = append(pairs, [2]string{l.dest, to})
			}
		case outside && repoPath != "" && u.sourceURL != "":
			pairs = append(pairs, [2]string{l.dest, strings.Replace(u.sourceURL, EditURLPlaceholder, escapeSegments(repoPath), 1) + linkSuffix(l.dest)})
		case outside && u.climbsOut(rel, linkPath(l.dest)):
			issues = append(issues, Issue{Code: IssueLinkUnresolved, Path: rel, Message: fmt.Sprintf(
				"line %d: link %q leads outside the repository; nothing outside it is published, left as written", l.line+lineShift, l.dest)})
		case outside:
			issues = append(issues, Issue{Code: IssueLinkUnresolved, Path: rel, Message: fmt.Sprintf(
				"line %d: link %q leads outside the repository's documentation roots; left as written", l.line+lineShift, l.dest)})
		default:
			issues = append(issues, Issue{Code: IssueLinkUnresolved, Path: rel, Message: fmt.Sprintf(
				"line %d: link %q leads to no page or file of the repository's documentation", l.line+lineShift, l.dest)})
		}
	}
	return pairs, issues
}

// internalLink reports whether dest names a file of the repository rather
// than a place on the page, another site or a mail address.
func internalLink(dest string) bool { return mdlinks.Internal(dest) }

// linkSuffix is the query and fragment of dest, as written.
func linkSuffix(dest string) string {
	if i := strings.IndexAny(dest, "?#"); i >= 0 {
		return dest[i:]
	}
	return ""
}

// linkPath is the path part of dest as a file name (see mdlinks.Path).
func linkPath(dest string) string { return mdlinks.Path(dest) }

// resolve finds what dest, written on page rel, names. outside is true
// when it names a place outside the unit's documentation (up out of its
// root, or a repository path outside every documentation root); repoPath
// is then that place's repository path, when it can be told.
func (u unitFiles) resolve(rel, dest string) (linkTarget, bool, string) {
	p := linkPath(dest)
	if p == "" {
		return linkTarget{}, false, ""
	}
	if t, ok := u.referencedFile(rel, p); ok {
		return t, false, ""
	}
	var candidates []string
	if strings.HasPrefix(p, "/") {
		abs := strings.TrimPrefix(path.Clean(p), "/")
		candidates = append(candidates, path.Join(u.root, abs)) // from the documentation root
		inRoot := false
		for _, d := range u.docRoots {
			d = strings.Trim(path.Clean(d), "/")
			if rest, ok := strings.CutPrefix(abs, d+"/"); ok {
				candidates = append(candidates, path.Join(u.root, rest)) // from the repository root
				inRoot = true
			} else if abs == d {
				candidates = append(candidates, u.root)
				inRoot = true
			}
		}
		if t, ok := u.first(candidates); ok {
			return t, false, ""
		}
		if t, ok := u.referencedAnywhere(abs); ok {
			return t, false, ""
		}
		if !inRoot && len(u.docRoots) > 0 {
			return linkTarget{}, true, abs
		}
		return linkTarget{}, false, ""
	}
	c := path.Join(path.Dir(rel), p)
	if c != u.root && !strings.HasPrefix(c, u.root+"/") {
		if t, ok := u.first(u.asURL(rel, p)); ok {
			return t, false, ""
		}
		return linkTarget{}, true, u.repoPathOf(rel, p)
	}
	if t, ok := u.first([]string{c}); ok {
		return t, false, ""
	}
	t, _ := u.first(u.asURL(rel, p))
	return t, false, ""
}

// asURL are the files a relative link written as a site URL names (Hugo
// documentation writes ../configuration/ for the page configuration.md):
// the path taken from the page's URL, which for page.md is the directory
// page/, as a directory or as a page file.
func (u unitFiles) asURL(rel, p string) []string {
	dir := path.Dir(rel)
	switch strings.ToLower(path.Base(rel)) {
	case "_index.md", "index.md", "readme.md":
	default:
		dir = path.Join(dir, strings.TrimSuffix(path.Base(rel), path.Ext(rel)))
	}
	c := path.Join(dir, p)
	if c != u.root && !strings.HasPrefix(c, u.root+"/") {
		return nil
	}
	return []string{c, c + ".md"}
}

// first is the first candidate that names something in the unit.
func (u unitFiles) first(candidates []string) (linkTarget, bool) {
	for _, c := range candidates {
		if t, ok := u.lookup(c); ok {
			return linkTarget{path: t, ok: true}, true
		}
	}
	return linkTarget{}, false
}

// repoPathOf is the repository path that the relative path p, written on
// page rel, names; "" when the repository has several documentation roots
// (the page's own place in the repository is then unknown) or p leads
// out of the repository.
func (u unitFiles) repoPathOf(rel, p string) string {
	if len(u.docRoots) != 1 {
		return ""
	}
	page := path.Join(strings.Trim(path.Clean(u.docRoots[0]), "/"), strings.TrimPrefix(rel, u.root+"/"))
	target := path.Join(path.Dir(page), p)
	if target == ".." || strings.HasPrefix(target, "../") || target == "." {
		return ""
	}
	return target
}

// escapeSegments percent-encodes each segment of a slash path.
func escapeSegments(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// lookup finds c in the unit: a page file, a file, or a directory — or a
// README.md, index.md or _index.md standing for its directory. A
// directory resolves to its index page's file when it has one.
func (u unitFiles) lookup(c string) (string, bool) {
	switch {
	case u.pages[c], u.files[c]:
		return c, true
	case u.dirs[c]:
		for _, name := range []string{"_index.md", "index.md", "README.md", "readme.md", "Readme.md"} {
			if u.pages[path.Join(c, name)] {
				return path.Join(c, name), true
			}
		}
		return c, true
	}
	switch strings.ToLower(path.Base(c)) {
	case "readme.md", "index.md", "_index.md":
		if dir := path.Dir(c); u.dirs[dir] {
			return u.lookup(dir)
		}
	}
	return "", false
}

// relativeLink is the path from directory from to target, both slash
// paths relative to content/.
func relativeLink(from, target string) string {
	fromParts := strings.Split(from, "/")
	toParts := strings.Split(target, "/")
	i := 0
	for i < len(fromParts) && i < len(toParts) && fromParts[i] == toParts[i] {
		i++
	}
	up := strings.Repeat("../", len(fromParts)-i)
	rest := strings.Join(toParts[i:], "/")
	if up == "" {
		if rest == "" {
			return "./"
		}
		return rest
	}
	return up + rest
}

// splitFrontMatter returns a page's front matter as a map and the offset
// where its body starts; a page without front matter gives an empty map
// and 0. ok is false when Hugo's page lexer cannot read the page.
func splitFrontMatter(src []byte) (map[string]any, int, bool) {
	items, err := pageparser.ParseBytes(src, pageparser.Config{})
	if err != nil {
		return nil, 0, false
	}
	for i, it := range items {
		if it.IsError() {
			return nil, 0, false
		}
		if !it.IsFrontMatter() {
			continue
		}
		fm, err := metadecoders.Default.UnmarshalToMap(it.Val(src), pageparser.FormatFromFrontMatterType(it.Type))
		if err != nil {
			return nil, 0, false
		}
		start := len(src)
		if i+1 < len(items) {
			start = items[i+1].Pos()
		}
		return fm, start, true
	}
	return map[string]any{}, 0, true
}

// withParams returns src with params added to its front matter (written
// again as JSON, which Hugo reads as well): the render hook's link pairs,
// the page's namespaced aliases.
func withParams(src []byte, params map[string]any) ([]byte, bool) {
	fm, start, ok := splitFrontMatter(src)
	if !ok {
		return src, false
	}
	for k, v := range params {
		fm[k] = v
	}
	data, err := json.Marshal(fm)
	if err != nil {
		return src, false
	}
	var out bytes.Buffer
	out.Write(data)
	out.WriteByte('\n')
	out.Write(src[start:])
	return out.Bytes(), true
}

// unitsOfContent groups the content tree by unit: for a page, the files
// of the repository (or the version) it belongs to.
type unitsOfContent struct {
	repos []Repository
	pages map[string]bool
	files map[string]bool
	dirs  map[string]bool
	// contentDir is where the content is read (for GitBook summaries and
	// MkDocs navs); summaries holds each unit's, read once (see
	// summary.go), and toolProblems the unit's unreadable tool
	// configuration, reported with the first of its pages.
	contentDir   string
	summaries    map[string]map[string]summaryEntry
	toolProblems map[string]*Issue
	gitbooks     map[string]gitbookConfig
	// gitbookRedirects holds each unit's .gitbook.yaml redirects by
	// target page (gitbookRedirectsTo).
	gitbookRedirects map[string]map[string][]string
	// referenced holds each unit's referenced files, listed once.
	referenced map[string][]string
}

func newUnitsOfContent(tree contentTree, repos []Repository, contentDir string) *unitsOfContent {
	set := func(list []string) map[string]bool {
		m := make(map[string]bool, len(list))
		for _, p := range list {
			m[p] = true
		}
		return m
	}
	return &unitsOfContent{repos: repos, pages: set(tree.Markdown), files: set(tree.Files), dirs: set(tree.Dirs),
		contentDir: contentDir, summaries: map[string]map[string]summaryEntry{}, toolProblems: map[string]*Issue{}, gitbooks: map[string]gitbookConfig{},
		gitbookRedirects: map[string]map[string][]string{}}
}

// of returns the unit of page rel; false when no repository holds it.
func (c *unitsOfContent) of(rel string) (unitFiles, bool) {
	for _, r := range c.repos {
		rest, ok := strings.CutPrefix(rel, r.ContentPath+"/")
		if !ok {
			continue
		}
		root, source := r.ContentPath, r.SourceURL
		if len(r.Versions) > 0 {
			slug, _, found := strings.Cut(rest, "/")
			if !found {
				return unitFiles{}, false
			}
			root += "/" + slug
			source = ""
			for _, v := range r.Versions {
				if v.Slug == slug {
					source = v.SourceURL
				}
			}
		}
		return unitFiles{root: root, docRoots: r.DocRoots, sourceURL: source, pages: c.pages, files: c.files, dirs: c.dirs,
			referenced: c.referencedOf(root)}, true
	}
	return unitFiles{}, false
}

// pageParams resolves the links of the page rel as written (src) and
// places its redirects in its unit's namespace. It returns the front
// matter parameters the page needs for them (none when it needs none) and
// the issues found.
func (c *unitsOfContent) pageParams(rel string, src []byte, redirects []string) (map[string]any, []Issue) {
	u, ok := c.of(rel)
	if !ok {
		return nil, nil
	}
	params := map[string]any{}
	if e, ok := c.summaryOf(u)[rel]; ok {
		params["weight"], params["linkTitle"] = e.weight, e.title
	}
	redirects = append(slices.Clone(redirects), c.gitbookRedirectsTo(u, rel)...)
	var issues []Issue
	if p := c.toolProblems[u.root]; p != nil {
		issues = append(issues, *p)
		c.toolProblems[u.root] = nil // once per unit
	}
	if _, start, ok := splitFrontMatter(src); ok {
		pairs, linkIssues := resolveLinks(rel, src[start:], bytes.Count(src[:start], []byte("\n")), u)
		issues = append(issues, linkIssues...)
		if len(pairs) > 0 {
			list := make([]any, len(pairs))
			for i, p := range pairs {
				list[i] = []any{p[0], p[1]}
			}
			params[linksParam] = list
		}
	}
	if len(redirects) > 0 {
		aliases, problems := namespacedAliases(rel, u, redirects)
		for _, p := range problems {
			issues = append(issues, Issue{Code: IssueFrontMatterInvalid, Path: rel, Message: p})
		}
		if len(aliases) > 0 {
			params["aliases"] = aliases
		}
	}
	return params, issues
}
