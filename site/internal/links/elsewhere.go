package links

import (
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/docweave/docweave/docstree"
	"github.com/docweave/docweave/forge"
)

// lead is where a link resolved out of its unit's files as written
// leads: a page or file of the unit (local, a content path) or a URL
// written as is (another unit's page on the site, the original site).
type lead struct {
	local, href string
}

// in is a lead to the unit's page or file at content path local.
func in(local string) lead { return lead{local: local} }

// to is a lead to the URL href.
func to(href string) lead { return lead{href: href} }

// written is the destination written into the Markdown for dest, found
// on page rel: the path relative to the page's folder, or the URL, each
// with dest's query and fragment.
func (l lead) written(rel, dest string) string {
	if l.local != "" {
		return relativeLink(path.Dir(rel), l.local) + linkSuffix(dest)
	}
	if strings.HasPrefix(l.href, "http") && strings.HasSuffix(l.href, dest) {
		return l.href // the original site's URL: dest as written, after the site's origin
	}
	return l.href + linkSuffix(dest)
}

// rooted resolves a site-rooted link (/docs/practices/naming/) that names
// no file of the unit as written (see resolve). In a repository with an
// original site it is a URL of that site: the longest prefix of any
// repository's original site that matches leads to the page or file
// there; a link that no prefix matches, or whose page the unit lacks,
// leads to the original site itself (checked like any external link).
// Without an original site, a link in the style of a page's URL (a
// folder's path, the page's path without .md, from the documentation
// root or from the repository's root) leads to the one page it matches.
//
// When it matches several pages, their content paths are returned too.
func (u Unit) rooted(dest string) (lead, bool, []string) {
	p := linkPath(dest)
	if u.Site == nil || !strings.HasPrefix(p, "/") {
		return lead{}, false, nil
	}
	repo, version := u.Site.repoOf(u.Root)
	if origin, _ := u.Site.originOf(repo); origin != "" {
		if r, repoPath, ok := u.Site.mapOriginal(origin, path.Clean(p)); ok {
			if l, ok := u.leadTo(r, repoPath, version); ok {
				return l, true, nil
			}
		}
		return to(origin + dest), true, nil
	}
	abs := strings.TrimPrefix(path.Clean(p), "/")
	candidates := []string{path.Join(u.Root, abs)}
	if repo >= 0 {
		if rest, ok := u.Site.inDocs(repo, abs); ok {
			candidates = append(candidates, path.Join(u.Root, rest))
		}
	}
	var found []string
	for _, c := range candidates {
		for _, f := range u.pagesAt(c) {
			if !slices.Contains(found, f) {
				found = append(found, f)
			}
		}
	}
	if len(found) != 1 {
		return lead{}, false, found
	}
	return in(found[0]), true, nil
}

// absolute resolves a link written as an absolute URL that leads to a
// page of the site: the forge's page of a file of an aggregated
// repository, or a URL of a repository's original site. It returns false
// for every other URL, which stays as written.
func (u Unit) absolute(dest string) (lead, bool) {
	if u.Site == nil || !(strings.HasPrefix(dest, "https://") || strings.HasPrefix(dest, "http://")) {
		return lead{}, false
	}
	parsed, err := url.Parse(dest)
	if err != nil || parsed.Host == "" {
		return lead{}, false
	}
	if l, ok := u.forge(dest); ok {
		return l, true
	}
	_, version := u.Site.repoOf(u.Root)
	p := parsed.Path
	if p == "" {
		p = "/"
	}
	r, repoPath, ok := u.Site.mapOriginal(strings.ToLower(parsed.Scheme+"://"+parsed.Host), path.Clean(p)+trailingSlash(p))
	if !ok {
		return lead{}, false
	}
	return u.leadTo(r, repoPath, version)
}

// trailingSlash is "/" when p ends with one (path.Clean drops it; a
// prefix match needs it).
func trailingSlash(p string) string {
	if strings.HasSuffix(p, "/") && p != "/" {
		return "/"
	}
	return ""
}

// forgePages are the paths after a repository's forge address that lead
// to a file's (or a folder's) page, before the branch or tag (see
// forge.FilePages).
var forgePages = forge.FilePages()

// forge resolves the forge's page of a file of an aggregated repository
// (https://github.com/org/repo/blob/main/docs/x.md#y) to that page of the
// version built from the branch or tag it names, else of the default
// version. A file outside the documentation roots stays on the forge.
func (u Unit) forge(dest string) (lead, bool) {
	pathPart, _, _ := strings.Cut(dest, "#")
	pathPart, _, _ = strings.Cut(pathPart, "?")
	for i, r := range u.Site.repos {
		if r.WebURL == "" {
			continue
		}
		rest, ok := cutPrefixFold(pathPart, strings.TrimSuffix(r.WebURL, "/")+"/")
		if !ok {
			continue
		}
		for _, page := range forgePages {
			after, ok := strings.CutPrefix(rest, page)
			if !ok {
				continue
			}
			ref, file := u.Site.splitRef(i, after)
			repoPath, err := url.PathUnescape(file)
			if err != nil || repoPath == "" {
				return lead{}, false
			}
			return u.leadTo(i, path.Clean(repoPath), ref)
		}
	}
	return lead{}, false
}

// splitRef splits what follows a forge's file page into the branch or tag
// and the file's path: a version's name when one of the repository's
// versions starts it (a branch name may hold slashes), else the first
// segment.
func (s *Site) splitRef(repo int, after string) (string, string) {
	best := ""
	for _, v := range s.repos[repo].Versions {
		if strings.HasPrefix(after, v.Name+"/") && len(v.Name) > len(best) {
			best = v.Name
		}
	}
	if best != "" {
		return best, strings.TrimPrefix(after, best+"/")
	}
	ref, file, _ := strings.Cut(after, "/")
	return ref, file
}

// cutPrefixFold is strings.CutPrefix ignoring case (hosts and forge
// owners are written in either).
func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return s, false
	}
	return s[len(prefix):], true
}

// leadTo is where a link to the repository path repoPath of repository
// repo leads, in the version named version when it has one (else its
// default): in this unit, the page or file found; in another unit, its
// site URL, which the assembly checks. false when the file is not
// published.
func (u Unit) leadTo(repo int, repoPath, version string) (lead, bool) {
	own, _ := u.Site.repoOf(u.Root)
	rest, inDocs := u.Site.inDocs(repo, repoPath)
	root := u.Site.unitRoot(repo, u.Site.versionSlug(repo, version))
	if root == u.Root && repo == own {
		if !inDocs {
			if f := path.Join(u.Root, docstree.ReferencedRel(repoPath)); u.Files[f] {
				return in(f), true
			}
			return lead{}, false
		}
		if found := u.pagesAt(path.Join(u.Root, rest)); len(found) == 1 {
			return in(found[0]), true
		}
		return lead{}, false
	}
	if !inDocs {
		return lead{}, false
	}
	return to(u.Site.pageURL(root, rest)), true
}

// pagesAt lists what the content path c names when read as a page's URL
// path: the file or folder itself, the page c.md, or (ignoring case) a
// page whose path is c with .md or c's folder's page; an old site's
// c.html is c.
func (u Unit) pagesAt(c string) []string {
	c = strings.TrimSuffix(c, ".html")
	var out []string
	for _, cand := range []string{c, c + ".md"} {
		if t, ok := u.Lookup(cand); ok {
			return []string{t}
		}
	}
	if u.Site == nil {
		return nil
	}
	for _, cand := range []string{c + ".md", c + "/_index.md", c + "/index.md", c + "/README.md", c} {
		for _, f := range u.Site.lookupFolded(cand) {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return out
}
