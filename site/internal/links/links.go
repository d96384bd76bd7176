// Package links finds what each link of a page names in its unit — a
// page, a directory's page, a published file, a referenced file, or the
// forge's page of a file outside the documentation — so that a link
// written for a forge works on the site; and, from the site's list of
// repositories alone, what a link written as an original site's URL or
// another aggregated repository's forge page names elsewhere on the site
// (site.go, elsewhere.go).
package links

import (
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/docweave/docweave/docstree"
	"github.com/docweave/docweave/internal/mdlinks"
	"github.com/docweave/docweave/site/internal/model"
)

// Documentation is written for a forge, where a link names a file of the
// repository: relative (../guide/setup.md), from the repository's root or
// from the documentation root (GitBook's /guide/setup.md), percent-encoded
// or with backslash escapes (securing%5c_nats/tls.md is securing_nats/
// tls.md), and README.md, index.md or _index.md standing for their
// directory. Resolve reads a page's links before Hugo runs, finds what
// each one names in the unit's tree and gives it its URL on the site
// (Addresses), which package pages writes into the page in place of the
// destination as written: the theme has no link or image render hook. A
// link that names nothing is reported with its line and left as written,
// but for a relative one, which is read from its page's folder.

// Unit is what a page's links may lead to: the files of its unit,
// as slash paths relative to content/.
type Unit struct {
	// Root is the unit's directory under content/ (a repository's content
	// path, or a version's directory below it).
	Root string
	// DocRoots are the repository's documentation roots, as repository
	// paths ("docs"): a link from the repository's root into one of them
	// is a link into the unit.
	DocRoots []string
	// SourceURL is the forge's page of a repository file (with {path}),
	// where a link to a file outside the documentation roots leads; "" when
	// the forge is not known.
	SourceURL string
	Pages     map[string]bool // Markdown files
	Files     map[string]bool // every other file
	Dirs      map[string]bool
	// Referenced are the unit's referenced files (see referenced.go).
	Referenced []string
	// Site is the rest of the site, for links that lead out of the unit
	// (site.go); nil resolves links within the unit only.
	Site *Site
	// IDs maps the stable ids the unit's pages declare (front matter id)
	// to their page files, for links by id (xref.go); Version is the
	// unit's version slug, "" when its repository is not versioned.
	IDs     map[string]string
	Version string
	// Addr gives the URLs of the site's files; nil in a test builds one
	// from Pages.
	Addr *Addresses
}

// pageLink is one link or image of a page. A source named in raw HTML is
// one too: Hugo never sees it as written, but a dialect may
// turn it into Markdown (GitBook's figures), and one that names nothing is
// reported all the same.
type pageLink struct {
	dest  string
	line  int
	image bool
}

// linkTarget is what a link names: a page file, a directory's page or a
// file, as a slash path relative to content/.
type linkTarget struct {
	path string
	ok   bool
}

// Resolve finds, for each link of the Markdown body of page rel, what
// it names in u (see Resolved). It returns, for each destination that
// needs another, the destination to resolve on the page's URL (a path
// relative to the page's folder, or a URL), the issues of links that lead
// nowhere and the links to check once the pages are rendered (checks.go);
// lineShift is added to the body's line numbers (the front matter's
// lines).
func Resolve(rel string, body []byte, lineShift int, u Unit) ([][2]string, []model.Issue, []Check) {
	found := mdlinks.Find(body)
	r := Resolved(rel, found, lineShift, u)
	return r.pairs, r.Issues, r.Checks
}

// Resolution is what Resolved found for a page's links.
type Resolution struct {
	// URLs maps each destination as written that leads somewhere else on
	// the site, or to a forge, to its URL.
	URLs   map[string]string
	Issues []model.Issue
	Checks []Check
	pairs  [][2]string
}

// Resolved is Resolve of the links found in a page's body (mdlinks.Find),
// giving each destination its final URL.
func Resolved(rel string, found []mdlinks.Link, lineShift int, u Unit) Resolution {
	var pairs [][2]string
	var issues []model.Issue
	var checks []Check
	urls := map[string]string{}
	seen := map[string]bool{}
	for _, f := range found {
		l := pageLink{dest: f.Dest, line: f.Line, image: f.Image}
		if seen[l.dest] {
			continue
		}
		if _, _, ok := XrefID(l.dest); ok && !l.image {
			seen[l.dest] = true
			to, file := u.xref(rel, l.dest)
			pairs = append(pairs, [2]string{l.dest, to})
			urls[l.dest] = to
			if file != "" {
				urls[l.dest] = u.url(file) + linkSuffix(to)
			}
			c := Check{Line: l.line + lineShift, Dest: l.dest, Fragment: fragmentOf(to)}
			if file != "" {
				c.Target = file
			} else {
				c.To = to
			}
			if file == "" || c.Fragment != "" {
				checks = append(checks, c)
			}
			continue
		}
		if !internalLink(l.dest) {
			if to, ok := u.absolute(l.dest); ok {
				seen[l.dest] = true
				pairs = append(pairs, [2]string{l.dest, to.written(rel, l.dest)})
				urls[l.dest] = u.final(to, rel, l.dest)
				if c, ok := checkOf(rel, l, linkTarget{}, pairs, u); ok {
					c.Line += lineShift
					checks = append(checks, c)
				}
			} else if c, ok := checkOf(rel, l, linkTarget{}, nil, u); ok {
				seen[l.dest] = true
				c.Line += lineShift
				checks = append(checks, c)
			}
			continue
		}
		seen[l.dest] = true
		if strings.HasPrefix(l.dest, "?") {
			continue // the page itself with a query ("?q=search"), as a fragment is
		}
		target, outside, repoPath := u.resolve(rel, l.dest)
		if !target.ok {
			to, ok, several := u.rooted(l.dest)
			if ok {
				pairs = append(pairs, [2]string{l.dest, to.written(rel, l.dest)})
				urls[l.dest] = u.final(to, rel, l.dest)
				if c, ok := checkOf(rel, l, linkTarget{}, pairs, u); ok {
					c.Line += lineShift
					checks = append(checks, c)
				}
				continue
			}
			if len(several) > 1 {
				slices.Sort(several)
				issues = append(issues, model.Issue{Code: model.IssueLinkUnresolved, Path: rel, Message: fmt.Sprintf(
					"line %d: %s %q matches %d pages (%s); left as written", l.line+lineShift, l.what(), l.dest, len(several), strings.Join(several, ", "))})
				u.fromFolder(urls, rel, l.dest)
				continue
			}
		}
		switch {
		case target.ok:
			if to := relativeLink(path.Dir(rel), target.path) + linkSuffix(l.dest); to != l.dest {
				pairs = append(pairs, [2]string{l.dest, to})
			}
			urls[l.dest] = u.url(target.path) + linkSuffix(l.dest)
		case outside && repoPath != "" && u.SourceURL != "":
			pairs = append(pairs, [2]string{l.dest, strings.Replace(u.SourceURL, model.EditURLPlaceholder, escapeSegments(repoPath), 1) + linkSuffix(l.dest)})
			urls[l.dest] = pairs[len(pairs)-1][1]
		case outside && u.climbsOut(rel, linkPath(l.dest)):
			issues = append(issues, model.Issue{Code: model.IssueLinkUnresolved, Path: rel, Message: fmt.Sprintf(
				"line %d: %s %q leads outside the repository; nothing outside it is published, left as written", l.line+lineShift, l.what(), l.dest)})
		case outside:
			issues = append(issues, model.Issue{Code: model.IssueLinkUnresolved, Path: rel, Message: fmt.Sprintf(
				"line %d: %s %q leads outside the repository's documentation roots; left as written", l.line+lineShift, l.what(), l.dest)})
		default:
			issues = append(issues, model.Issue{Code: model.IssueLinkUnresolved, Path: rel, Message: fmt.Sprintf(
				"line %d: %s %q leads to no page or file of the repository's documentation", l.line+lineShift, l.what(), l.dest)})
		}
		if _, ok := urls[l.dest]; !ok {
			u.fromFolder(urls, rel, l.dest)
		}
		if c, ok := checkOf(rel, l, target, pairs, u); ok {
			c.Line += lineShift
			checks = append(checks, c)
		}
	}
	return Resolution{URLs: urls, Issues: issues, Checks: checks, pairs: pairs}
}

// url is the site URL of the unit's file at content path p.
func (u Unit) url(p string) string { return u.addresses().URL(p) }

// addresses is u.Addr, or one made from u.Pages (in a test).
func (u Unit) addresses() *Addresses {
	if u.Addr != nil {
		return u.Addr
	}
	base := "/"
	if u.Site != nil {
		base = u.Site.BasePath
	}
	return NewAddresses(base, u.Pages, nil)
}

// final is the URL of lead l for dest, written on page rel.
func (u Unit) final(l lead, rel, dest string) string {
	if l.local != "" {
		return u.url(l.local) + linkSuffix(dest)
	}
	return l.written(rel, dest)
}

// fromFolder gives a relative dest that names nothing the URL of the
// same path from its page's folder (the page's URL is one folder deeper
// than its file): left as written, the browser would look one folder too
// deep for it. A dest that climbs above the site is left as written.
func (u Unit) fromFolder(urls map[string]string, rel, dest string) {
	p := dest
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if p == "" || strings.HasPrefix(p, "/") {
		return
	}
	// A page file named as a folder that has a page of its own
	// ("setup.md" for setup/README.md): Hugo's page lookup, which the
	// theme's link hook asked, takes it for the folder.
	if name := linkPath(p); path.Ext(name) == ".md" {
		c := path.Join(path.Dir(rel), strings.TrimSuffix(name, ".md"))
		if a := u.addresses(); a.sections[c] {
			urls[dest] = a.URL(c) + linkSuffix(dest)
			return
		}
	}
	j := path.Join("docs", path.Dir(rel), p)
	if j == ".." || strings.HasPrefix(j, "../") {
		return
	}
	urls[dest] = u.addresses().BasePath + j + linkSuffix(dest)
}

// what names the link in an issue: "image" (the build report counts
// images apart from links) or "link".
func (l pageLink) what() string {
	if l.image {
		return "image"
	}
	return "link"
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
func (u Unit) resolve(rel, dest string) (linkTarget, bool, string) {
	p := linkPath(dest)
	if p == "" {
		return linkTarget{}, false, ""
	}
	if rest, ok := strings.CutPrefix(p, docstree.SiteAlias); ok {
		p = "/" + rest // Docusaurus' site folder, wherever it is
	}
	if t, ok := u.referencedFile(rel, p); ok {
		return t, false, ""
	}
	var candidates []string
	if strings.HasPrefix(p, "/") {
		abs := strings.TrimPrefix(path.Clean(p), "/")
		candidates = append(candidates, path.Join(u.Root, abs)) // from the documentation root
		inRoot := false
		for _, d := range u.DocRoots {
			d = strings.Trim(path.Clean(d), "/")
			if rest, ok := strings.CutPrefix(abs, d+"/"); ok {
				candidates = append(candidates, path.Join(u.Root, rest)) // from the repository root
				inRoot = true
			} else if abs == d {
				candidates = append(candidates, u.Root)
				inRoot = true
			}
		}
		if t, ok := u.first(candidates); ok {
			return t, false, ""
		}
		if t, ok := u.referencedAnywhere(abs); ok {
			return t, false, ""
		}
		if !inRoot && len(u.DocRoots) > 0 {
			return linkTarget{}, true, abs
		}
		return linkTarget{}, false, ""
	}
	c := path.Join(path.Dir(rel), p)
	if c != u.Root && !strings.HasPrefix(c, u.Root+"/") {
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
func (u Unit) asURL(rel, p string) []string {
	dir := path.Dir(rel)
	switch strings.ToLower(path.Base(rel)) {
	case "_index.md", "index.md", "readme.md":
	default:
		dir = path.Join(dir, strings.TrimSuffix(path.Base(rel), path.Ext(rel)))
	}
	c := path.Join(dir, p)
	if c != u.Root && !strings.HasPrefix(c, u.Root+"/") {
		return nil
	}
	return []string{c, c + ".md"}
}

// first is the first candidate that names something in the unit.
func (u Unit) first(candidates []string) (linkTarget, bool) {
	for _, c := range candidates {
		if t, ok := u.Lookup(c); ok {
			return linkTarget{path: t, ok: true}, true
		}
	}
	return linkTarget{}, false
}

// repoPathOf is the repository path that the relative path p, written on
// page rel, names; "" when the repository has several documentation roots
// (the page's own place in the repository is then unknown) or p leads
// out of the repository.
func (u Unit) repoPathOf(rel, p string) string {
	if len(u.DocRoots) != 1 {
		return ""
	}
	page := path.Join(strings.Trim(path.Clean(u.DocRoots[0]), "/"), strings.TrimPrefix(rel, u.Root+"/"))
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

// Lookup finds c in the unit: a page file, a file, or a directory — or a
// README.md, index.md or _index.md standing for its directory. A
// directory resolves to its index page's file when it has one.
func (u Unit) Lookup(c string) (string, bool) {
	switch {
	case u.Pages[c], u.Files[c]:
		return c, true
	case u.Dirs[c]:
		for _, name := range []string{"_index.md", "index.md", "README.md", "readme.md", "Readme.md"} {
			if u.Pages[path.Join(c, name)] {
				return path.Join(c, name), true
			}
		}
		return c, true
	}
	switch strings.ToLower(path.Base(c)) {
	case "readme.md", "index.md", "_index.md":
		if dir := path.Dir(c); u.Dirs[dir] {
			return u.Lookup(dir)
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
