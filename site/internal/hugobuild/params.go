package hugobuild

import (
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/docweave/docweave/site/internal/model"
)

// A site is rendered in parts (site/parts.go): each unit — a repository, or
// one version of it — by a Hugo build of its own, and the pages that span
// units by the assembly. What a unit's pages show of the rest of the site
// therefore cannot come from Hugo's page tree, which holds only the unit:
// it travels in params.docweave, the same in every render of a site:
//
//	repositories  one map per repository (RepositoryParams)
//	taxonomies    the configured taxonomies, in name order, each with
//	              plural, title and url (the menu lists them all)
//	unit          {path: the unit's content path} in a unit's render
//	contentDir, pagesDir  where page files come from, so templates can
//	              tell a page's path in its repository (edit links)

// RepositoryParams is params.docweave.repositories: per repository its
// name, forge, content path and edit URL pattern, and the URLs a link to
// it uses — root (/docs/<path>/), landing (root, or the default version's
// root) and landingPermalink — with its versions (versionParams). pages,
// the number of pages behind landing, is set only when pageCounts knows it
// (the assembly); a unit's render does not. Versions carry their commits,
// and repositories their description and last update, only in the
// assembly (withCommits): a unit's render must not depend on a commit that
// changed nothing of its files.
func RepositoryParams(repos []model.Repository, baseURL string, pageCounts map[string]int, withCommits bool) []map[string]any {
	basePath := SitePath(baseURL)
	out := make([]map[string]any, 0, len(repos))
	for _, r := range repos {
		root := path.Join(basePath, "docs", r.ContentPath) + "/"
		landing, landingUnit := root, r.ContentPath
		if d, ok := model.DefaultVersion(r); ok {
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
	basePath := SitePath(baseURL)
	plurals := slices.Sorted(maps.Values(taxonomies))
	plurals = slices.Compact(plurals)
	out := make([]map[string]any, 0, len(plurals))
	for _, plural := range plurals {
		out = append(out, map[string]any{"plural": plural, "title": humanize(plural), "url": path.Join(basePath, plural) + "/"})
	}
	return out
}

// SitePath returns the path part of a base URL ("/handbook/" for
// "https://example.org/handbook"), with a slash at both ends: the prefix
// every URL of the site is served under.
func SitePath(baseURL string) string {
	p := "/"
	if u, err := url.Parse(baseURL); err == nil && u.Path != "" {
		p = u.Path
	}
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return p
}

// versionURL is where a version's root page is served, base path
// included: "/docs/alpha/v1.1.0/", or "/handbook/docs/alpha/v1.1.0/".
func versionURL(basePath, contentPath, slug string) string {
	return path.Join(basePath, "docs", contentPath, slug) + "/"
}

// versionParams adds a versioned repository's versions to its entry in
// params.docweave.repositories (see Config):
//
//	model.DefaultVersion  the default version's name
//	versions        one map per version, in switcher order:
//	  rank     its position in that order (0 first)
//	  name     branch or tag name ("v1.1.0", "feature/x")
//	  slug     its directory and URL segment ("feature-x")
//	  default  true for the default version
//	  tag      true for a tag, false for a branch
//	  commit   the full commit hash (in the assembly's configuration only)
//	  url      its root page's URL path, base path included
//	           ("/docs/alpha/v1.1.0/")
//	  editURL  the pattern of its pages' edit links ("" for none)
//
// A repository without versions is left as it is, so the configuration
// of a non-versioned site does not change.
func versionParams(entry map[string]any, r model.Repository, basePath string, withCommits bool) {
	if len(r.Versions) == 0 {
		return
	}
	versions := make([]map[string]any, 0, len(r.Versions))
	for i, v := range r.Versions {
		version := map[string]any{
			"rank":    i,
			"name":    v.Name,
			"slug":    v.Slug,
			"default": v.Default,
			"tag":     v.Tag,
			"url":     versionURL(basePath, r.ContentPath, v.Slug),
			"editURL": v.EditURL,
		}
		if withCommits {
			version["commit"] = v.Commit
		}
		versions = append(versions, version)
	}
	entry["versions"] = versions
	if d, ok := model.DefaultVersion(r); ok {
		entry["defaultVersion"] = d.Name
	}
}
