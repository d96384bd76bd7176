package links

import (
	"net/url"
	"path"
	"strings"

	hugopaths "github.com/gohugoio/hugo/common/paths"
)

// Addresses gives the URL on the site of each file of the content tree,
// as Hugo publishes it, so that a page's links carry their final URLs
// before Hugo renders it (the theme has no link or image render hook):
//
//   - a directory's page (its _index.md, else index.md, else README.md in
//     any case: hugobuild.PlanContent mounts the same one) and a folder
//     with Markdown below it are published at the folder's URL;
//   - any other page at its path without the extension, its last segment
//     replaced by its front matter slug, as a folder;
//   - Hugo's path rules apply to pages and folders: spaces become
//     hyphens, characters it does not allow in paths are dropped, case
//     is kept (disablePathToLower);
//   - any other file at its path, percent-encoded.
//
// Everything is below BasePath's docs/, where content/ is mounted.
type Addresses struct {
	BasePath string
	pages    map[string]bool
	index    map[string]string // folder → its page file
	sections map[string]bool   // folders with Markdown at or below them
	slugs    map[string]string // page file → front matter slug
}

// NewAddresses reads the addresses of pages (slash paths relative to
// content/); slugs are the pages' front matter slugs, by file.
func NewAddresses(basePath string, pages map[string]bool, slugs map[string]string) *Addresses {
	if basePath == "" {
		basePath = "/"
	}
	a := &Addresses{BasePath: basePath, pages: pages, index: map[string]string{}, sections: map[string]bool{}, slugs: slugs}
	rank := map[string]int{}
	for p := range pages {
		dir := path.Dir(p)
		for up := dir; !a.sections[up]; up = path.Dir(up) {
			a.sections[up] = true
			if up == "." {
				break
			}
		}
		base := path.Base(p)
		r := 0
		switch strings.ToLower(strings.TrimSuffix(base, path.Ext(base))) {
		case "_index":
			r = 3
		case "index":
			r = 2
		case "readme":
			r = 1
		default:
			continue
		}
		if have := rank[dir]; r > have || r == have && r == 1 && p < a.index[dir] {
			rank[dir], a.index[dir] = r, p
		}
	}
	return a
}

// URL is the site URL of the page, folder or file at content path p.
func (a *Addresses) URL(p string) string {
	p = strings.Trim(p, "/")
	if a.pages[p] {
		dir, base := path.Dir(p), path.Base(p)
		stem := strings.TrimSuffix(base, path.Ext(base))
		switch strings.ToLower(stem) {
		case "_index", "index":
			return a.folderURL(dir)
		}
		if a.index[dir] == p {
			return a.folderURL(dir)
		}
		if slug := a.slugs[p]; slug != "" {
			stem = slug
		}
		return a.folderURL(path.Join(dir, stem))
	}
	if p == "" || p == "." || a.sections[p] {
		return a.folderURL(p)
	}
	return a.BasePath + "docs/" + escapeSegments(p)
}

// folderURL is the URL of a page published as the folder dir.
func (a *Addresses) folderURL(dir string) string {
	if dir == "." || dir == "" {
		return a.BasePath + "docs/"
	}
	return hugoURL(a.BasePath + "docs/" + hugopaths.Sanitize(dir) + "/")
}

// hugoURL is p percent-encoded as Hugo writes a page's URL.
func hugoURL(p string) string {
	u, err := url.Parse(p)
	if err != nil {
		return p
	}
	return u.String()
}
