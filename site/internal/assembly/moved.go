package assembly

import (
	"fmt"
	"html"
	"slices"
	"strings"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/site/internal/model"
)

// docweave remembers the URLs it published (Result.URLs, kept in
// the saved state) and redirects the ones whose page moved, when the next
// assembly is given them (Options.Remembered). A remembered URL
// knows its page's repository, forge, version, path below the unit's root
// and content hash, and finds the page again:
//
//   - in a unit of the same repository: the same forge, or any forge when
//     the URL was not namespaced by forge (a second forge joined: every
//     repository of that name is a candidate, and the first in
//     configuration order wins the URL, the others are URL_CONFLICTs);
//   - of the same version, or the default version when the URL had none
//     (versioning was turned on), or the unversioned unit (turned off);
//   - at the same path, or else, when that path is gone, at a new path
//     whose content hash is the same (git renamed the file: the content
//     of a renamed file is the same, whatever git's own rename detection
//     says about edited ones).
//
// A URL whose page is found at another URL becomes a redirect, in the map
// and as an HTML redirect page; it is remembered again, so the redirect
// stays. A URL with no page is forgotten: no redirect to nowhere.

// movedPage is the redirect of a remembered URL to where its page is now.
type movedPage struct {
	Redirect
	page events.PublishedURL // the page it leads to, as the URL is remembered
}

// publishedURLs lists the pages of the units, in configuration order. A
// page keeps the time its content last changed from remembered when its
// URL and hash are the same; otherwise it changed in this build, at its
// repository's commit time.
func publishedURLs(repos []model.Repository, facts map[string]*model.UnitFacts, remembered []events.PublishedURL) []events.PublishedURL {
	before := make(map[string]events.PublishedURL, len(remembered))
	for _, r := range remembered {
		before[r.URL] = r
	}
	var out []events.PublishedURL
	for _, u := range model.Units(repos) {
		f := facts[u.Path]
		if f == nil {
			continue
		}
		for _, p := range f.Pages {
			pu := publishedURL(u, p)
			if old, ok := before[pu.URL]; ok && old.Hash == pu.Hash && !old.Changed.IsZero() {
				pu.Changed = old.Changed
			} else {
				pu.Changed = u.Repository.Updated
			}
			out = append(out, pu)
		}
	}
	return out
}

func publishedURL(u model.Unit, p model.PageFact) events.PublishedURL {
	pu := events.PublishedURL{URL: p.URL, Repository: u.Repository.Name, Forge: u.Repository.Forge, Path: p.Path, Hash: p.Hash}
	if u.Version != nil {
		pu.Version = u.Version.Slug
	}
	return pu
}

// movedPages finds where the remembered URLs' pages are now; a URL still
// a page of the site (published, from publishedURLs) is not moved.
func movedPages(repos []model.Repository, facts map[string]*model.UnitFacts, published, remembered []events.PublishedURL) []movedPage {
	current := map[string]bool{}
	for _, p := range published {
		current[urlKey(p.URL)] = true
	}
	known := map[string]bool{} // remembered pages, by identity and path
	for _, r := range remembered {
		known[identity(r)+"\x00"+r.Path] = true
	}
	sorted := slices.Clone(remembered)
	slices.SortStableFunc(sorted, func(a, b events.PublishedURL) int { return strings.Compare(a.URL, b.URL) })
	var out []movedPage
	for _, r := range sorted {
		if current[urlKey(r.URL)] || !localPath(r.URL) {
			continue
		}
		for _, u := range model.Units(repos) {
			if !successorUnit(r, u) || facts[u.Path] == nil {
				continue
			}
			p, ok := successorPage(r, u, facts[u.Path].Pages, known)
			if ok && urlKey(p.URL) != urlKey(r.URL) {
				out = append(out, movedPage{Redirect: Redirect{From: r.URL, To: p.URL}, page: publishedURL(u, p)})
			}
		}
	}
	return out
}

// identity names a unit as a remembered URL knows it.
func identity(p events.PublishedURL) string {
	return p.Forge + "\x00" + p.Repository + "\x00" + p.Version
}

// successorUnit reports whether u may hold the page of remembered URL r.
func successorUnit(r events.PublishedURL, u model.Unit) bool {
	repo := u.Repository
	if repo.Name != r.Repository || (r.Forge != "" && repo.Forge != "" && repo.Forge != r.Forge) {
		return false
	}
	switch {
	case u.Version == nil:
		return true
	case r.Version == "":
		return u.Version.Default
	default:
		return u.Version.Slug == r.Version
	}
}

// successorPage finds r's page among a unit's pages: at the same path, or
// else at a path not remembered with the same content.
func successorPage(r events.PublishedURL, u model.Unit, pages []model.PageFact, known map[string]bool) (model.PageFact, bool) {
	for _, p := range pages {
		if p.Path == r.Path {
			return p, true
		}
	}
	if r.Hash == "" {
		return model.PageFact{}, false
	}
	id := identity(publishedURL(u, model.PageFact{}))
	for _, p := range pages {
		if p.Hash == r.Hash && !known[id+"\x00"+p.Path] {
			return p, true
		}
	}
	return model.PageFact{}, false
}

// redirectPageFile is the file of the HTML redirect page at URL from.
func redirectPageFile(from string) string {
	rel := strings.TrimPrefix(from, "/")
	if strings.HasSuffix(rel, "/") || rel == "" {
		rel += "index.html"
	}
	return rel
}

// redirectPage is an HTML redirect page to target, as Hugo writes one
// for an alias: a canonical link and an immediate refresh.
func redirectPage(target string) []byte {
	t := html.EscapeString(target)
	return fmt.Appendf(nil, "<!DOCTYPE html>\n<html lang=\"en\">\n\t<head>\n\t\t<title>%s</title>\n\t\t<link rel=\"canonical\" href=\"%s\">\n\t\t<meta charset=\"utf-8\">\n\t\t<meta http-equiv=\"refresh\" content=\"0; url=%s\">\n\t</head>\n</html>\n", t, t, t)
}

// localPath reports whether p is a path on this site, never another host.
func localPath(p string) bool {
	return strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "//") && !strings.ContainsAny(p, "\\\r\n \t")
}
