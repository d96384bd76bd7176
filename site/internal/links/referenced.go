package links

import (
	"path"
	"strings"

	"github.com/docweave/docweave/docstree"
	"github.com/docweave/docweave/gitx"
)

// A page's image or download that its documentation roots do not publish
// — in a folder outside them, or hidden (GitBook's .gitbook/assets) — is
// a referenced file: the clone stage put it in the unit's tree at
// docstree.ReferencedRel of its repository path (_files/…), and a link to
// it leads there.

// referencedFile finds the published copy of the referenced file that the
// link path p, written on page rel, names.
func (u Unit) referencedFile(rel, p string) (linkTarget, bool) {
	if p == "" {
		return linkTarget{}, false
	}
	for _, page := range u.repoPathsOf(rel) {
		for _, c := range docstree.ReferenceCandidates(page, p, u.DocRoots) {
			if f := path.Join(u.Root, docstree.ReferencedRel(c)); u.Files[f] {
				return linkTarget{path: f, ok: true}, true
			}
		}
	}
	return linkTarget{}, false
}

// repoPathsOf are the repository paths the page rel may have: one per
// documentation root, since the unit's tree merges them.
func (u Unit) repoPathsOf(rel string) []string {
	rest, ok := strings.CutPrefix(rel, u.Root+"/")
	if !ok {
		return nil
	}
	out := make([]string, 0, len(u.DocRoots))
	for _, d := range u.DocRoots {
		out = append(out, path.Join(strings.Trim(path.Clean(d), "/"), rest))
	}
	return out
}

// climbsOut reports whether the relative link path p, written on page
// rel, leads above the repository's root from every place the page may
// have in the repository: a file there is never published.
func (u Unit) climbsOut(rel, p string) bool {
	pages := u.repoPathsOf(rel)
	if len(pages) == 0 || strings.HasPrefix(p, "/") {
		return false
	}
	for _, page := range pages {
		if c := path.Join(path.Dir(page), p); c != ".." && !strings.HasPrefix(c, "../") {
			return false
		}
	}
	return true
}

// referencedAnywhere finds, for the site-rooted path abs that names no
// file of the documentation, the one referenced file whose repository
// path ends with it (gitx.AnyFolder): the clone stage took it only
// when it was the only such file of the repository, or the only one in a
// static folder (gitx.OneOf).
func (u Unit) referencedAnywhere(abs string) (linkTarget, bool) {
	if abs == "" || abs == "." {
		return linkTarget{}, false
	}
	exact := path.Join(u.Root, docstree.ReferencedRel(abs))
	rest := strings.TrimPrefix(docstree.ReferencedRel(abs), docstree.FilesDir+"/")
	var found []string
	for _, f := range u.Referenced {
		if f == exact || strings.HasSuffix(f, "/"+rest) {
			found = append(found, f)
		}
	}
	f, ok := gitx.OneOf(found, rest)
	return linkTarget{path: f, ok: ok}, ok
}
