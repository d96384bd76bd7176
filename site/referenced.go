package site

import (
	"path"
	"strings"

	"github.com/docweave/docweave/docstree"
)

// A page's image or download that its documentation roots do not publish
// — in a folder outside them, or hidden (GitBook's .gitbook/assets) — is
// a referenced file: the clone stage put it in the unit's tree at
// docstree.ReferencedRel of its repository path (_files/…), and a link to
// it leads there.

// referencedFile finds the published copy of the referenced file that the
// link path p, written on page rel, names.
func (u unitFiles) referencedFile(rel, p string) (linkTarget, bool) {
	if p == "" {
		return linkTarget{}, false
	}
	for _, page := range u.repoPathsOf(rel) {
		for _, c := range docstree.ReferenceCandidates(page, p, u.docRoots) {
			if f := path.Join(u.root, docstree.ReferencedRel(c)); u.files[f] {
				return linkTarget{path: f, ok: true}, true
			}
		}
	}
	return linkTarget{}, false
}

// repoPathsOf are the repository paths the page rel may have: one per
// documentation root, since the unit's tree merges them.
func (u unitFiles) repoPathsOf(rel string) []string {
	rest, ok := strings.CutPrefix(rel, u.root+"/")
	if !ok {
		return nil
	}
	out := make([]string, 0, len(u.docRoots))
	for _, d := range u.docRoots {
		out = append(out, path.Join(strings.Trim(path.Clean(d), "/"), rest))
	}
	return out
}

// climbsOut reports whether the relative link path p, written on page
// rel, leads above the repository's root from every place the page may
// have in the repository: a file there is never published.
func (u unitFiles) climbsOut(rel, p string) bool {
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
