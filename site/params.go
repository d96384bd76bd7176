package site

import (
	"maps"
	"path"
	"slices"
	"strings"
	"time"
)

// A site is rendered in parts (see parts.go): each unit — a repository, or
// one version of it — by a Hugo build of its own, and the pages that span
// units by the assembly. What a unit's pages show of the rest of the site
// therefore cannot come from Hugo's page tree, which holds only the unit:
// it travels in params.docweave, the same in every render of a site:
//
//	repositories  one map per repository (siteRepositoryParams)
//	taxonomies    the configured taxonomies, in name order, each with
//	              plural, title and url (the menu lists them all)
//	unit          {path: the unit's content path} in a unit's render
//	contentDir, pagesDir  where page files come from, so templates can
//	              tell a page's path in its repository (edit links)

// siteRepositoryParams is params.docweave.repositories: per repository its
// name, forge, content path and edit URL pattern, and the URLs a link to
// it uses — root (/docs/<path>/), landing (root, or the default version's
// root) and landingPermalink — with its versions (versionParams). pages,
// the number of pages behind landing, is set only when pageCounts knows it
// (the assembly); a unit's render does not. Versions carry their commits,
// and repositories their description and last update, only in the
// assembly (withCommits): a unit's render must not depend on a commit that
// changed nothing of its files.
func siteRepositoryParams(repos []Repository, baseURL string, pageCounts map[string]int, withCommits bool) []map[string]any {
	basePath := sitePath(baseURL)
	out := make([]map[string]any, 0, len(repos))
	for _, r := range repos {
		root := path.Join(basePath, "docs", r.ContentPath) + "/"
		landing, landingUnit := root, r.ContentPath
		if d, ok := defaultVersion(r); ok {
			landing = versionURL(basePath, r.ContentPath, d.Slug)
			landingUnit = path.Join(r.ContentPath, d.Slug)
		}
		entry := map[string]any{
			"name": r.Name, "forge": r.Forge, "path": r.ContentPath, "editURL": r.EditURL,
			"root": root, "landing": landing, "landingPermalink": permalink(baseURL, landing),
		}
		if n, ok := pageCounts[landingUnit]; ok {
			entry["pages"] = n
		}
		if withCommits {
			// Only the assembly's pages (the front page's cards) show
			// these: a unit's render must not change when another
			// repository's commit or description does.
			if r.Description != "" {
				entry["description"] = r.Description
			}
			if !r.Updated.IsZero() {
				entry["updated"] = r.Updated.UTC().Format(time.RFC3339)
				entry["updatedDate"] = r.Updated.UTC().Format("2 January 2006")
			}
		}
		versionParams(entry, r, basePath, withCommits)
		out = append(out, entry)
	}
	return out
}

// permalink turns a URL path of the site (base path included) into the
// absolute URL Hugo's .Permalink gives: the base URL's scheme and host in
// front, or the path itself when the base URL has no host.
func permalink(baseURL, sitePathURL string) string {
	i := strings.Index(baseURL, "://")
	if i < 0 {
		return sitePathURL
	}
	host := baseURL[i+3:]
	if j := strings.IndexByte(host, '/'); j >= 0 {
		host = host[:j]
	}
	return baseURL[:i+3] + host + sitePathURL
}

// taxonomyParams is params.docweave.taxonomies: every configured taxonomy
// by plural name, with the title the menu shows ("Tags") and its URL.
func taxonomyParams(taxonomies map[string]string, baseURL string) []map[string]any {
	basePath := sitePath(baseURL)
	plurals := slices.Sorted(maps.Values(taxonomies))
	plurals = slices.Compact(plurals)
	out := make([]map[string]any, 0, len(plurals))
	for _, plural := range plurals {
		out = append(out, map[string]any{"plural": plural, "title": humanize(plural), "url": path.Join(basePath, plural) + "/"})
	}
	return out
}
