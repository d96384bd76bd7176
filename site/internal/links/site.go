package links

import (
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/docweave/docweave/site/internal/model"
)

// A link may lead out of its unit: to another repository, or another
// version, of the site. A unit's render sees the rest of the site only
// through the list of repositories and versions, so such a link is
// resolved from that list alone: the URL of another unit's page file is
// computed from its repository path (its content path, documentation
// roots and versions), never by reading the other unit. Whether the page
// is there is checked at assembly, against the units' facts.
//
// Two forms of link lead elsewhere: the URLs of a repository's original
// site (repositories[].original_site), absolute or, in that repository's
// own pages, rooted; and the forge's page of a repository's file
// (https://github.com/org/repo/blob/main/docs/x.md).

// Site is what a render knows of the site's other units: every
// repository, its documentation roots, versions, forge address and
// original site.
type Site struct {
	// BasePath is the site's path below its host ("/", "/handbook/"):
	// the links to another unit's pages start with it.
	BasePath string
	repos    []model.Repository
	prefixes []originPrefix // longest first
	pages    map[string]bool
	folded   map[string][]string // lower-cased page path → page paths (lookupFolded)
}

// originPrefix is one path prefix of a repository's original site.
type originPrefix struct {
	origin string // scheme://host, lower-cased
	path   string // the URL path prefix, the site's own path included ("/docs/")
	repo   int
	folder string // a clean repository path, "." for the root
}

// NewSite reads what links need of the site's repositories. pages are
// the render's page files (slash paths relative to content/).
func NewSite(repos []model.Repository, basePath string, pages map[string]bool) *Site {
	if basePath == "" {
		basePath = "/"
	}
	s := &Site{BasePath: basePath, repos: repos, pages: pages}
	for i, r := range repos {
		if r.OriginalSite == nil {
			continue
		}
		origin, base, ok := splitSiteURL(r.OriginalSite.URL)
		if !ok {
			continue
		}
		for prefix, folder := range r.OriginalSite.Paths {
			folder = path.Clean(strings.Trim(folder, "/"))
			if folder == "" {
				folder = "."
			}
			p := strings.TrimSuffix(base, "/") + prefix
			s.prefixes = append(s.prefixes, originPrefix{origin: origin, path: p, repo: i, folder: folder})
		}
	}
	slices.SortStableFunc(s.prefixes, func(a, b originPrefix) int {
		if len(a.path) != len(b.path) {
			return len(b.path) - len(a.path)
		}
		return strings.Compare(a.path, b.path)
	})
	return s
}

// splitSiteURL splits an absolute http(s) URL into its origin (lower-case
// scheme://host) and its path ("/" at least).
func splitSiteURL(raw string) (string, string, bool) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", "", false
	}
	p := u.Path
	if p == "" {
		p = "/"
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), p, true
}

// repoOf is the index of the repository whose unit root is root, and the
// unit's version name ("" when the repository is not versioned); -1 when
// none.
func (s *Site) repoOf(root string) (int, string) {
	for i, r := range s.repos {
		if root == r.ContentPath {
			return i, ""
		}
		if rest, ok := strings.CutPrefix(root, r.ContentPath+"/"); ok {
			for _, v := range r.Versions {
				if v.Slug == rest {
					return i, v.Name
				}
			}
		}
	}
	return -1, ""
}

// originOf is the original site's origin and path of the repository, ""
// when it declares none.
func (s *Site) originOf(repo int) (string, string) {
	if repo < 0 || s.repos[repo].OriginalSite == nil {
		return "", ""
	}
	origin, base, _ := splitSiteURL(s.repos[repo].OriginalSite.URL)
	return origin, base
}

// mapOriginal finds the repository path that the URL path p of the site
// at origin publishes: the longest prefix of any repository's original
// site wins.
func (s *Site) mapOriginal(origin, p string) (int, string, bool) {
	for _, e := range s.prefixes {
		if e.origin != origin {
			continue
		}
		rest, ok := strings.CutPrefix(p, e.path)
		if !ok {
			if p+"/" != e.path {
				continue
			}
			rest = ""
		}
		return e.repo, path.Join(e.folder, rest), true
	}
	return -1, "", false
}

// inDocs is the path below the repository's documentation roots of the
// repository path p ("" for a root itself); false when p is outside every
// root.
func (s *Site) inDocs(repo int, p string) (string, bool) {
	roots := s.repos[repo].DocRoots
	if len(roots) == 0 {
		roots = []string{"docs"}
	}
	for _, d := range roots {
		d = strings.Trim(path.Clean(d), "/")
		switch {
		case d == "." || d == "":
			if p == "." {
				return "", true
			}
			return p, true
		case p == d:
			return "", true
		}
		if rest, ok := strings.CutPrefix(p, d+"/"); ok {
			return rest, true
		}
	}
	return "", false
}

// versionSlug picks the version of repository repo a link leads to: the
// one named want when it has it, else its default; "" when it has none.
func (s *Site) versionSlug(repo int, want string) string {
	vs := s.repos[repo].Versions
	if len(vs) == 0 {
		return ""
	}
	for _, v := range vs {
		if want != "" && v.Name == want {
			return v.Slug
		}
	}
	for _, v := range vs {
		if v.Default {
			return v.Slug
		}
	}
	return vs[0].Slug
}

// unitRoot is the content path of the unit of repository repo and
// version slug.
func (s *Site) unitRoot(repo int, slug string) string {
	if slug == "" {
		return s.repos[repo].ContentPath
	}
	return s.repos[repo].ContentPath + "/" + slug
}

// pageURL is the site URL of the file at rel (a path below the unit's
// root) of the unit at root: a page's URL is its path without .md, a
// directory's page's (README.md, index.md, _index.md) its folder's; any
// other file is published at its path.
func (s *Site) pageURL(root, rel string) string {
	base := s.BasePath + "docs/" + escapeSegments(root) + "/"
	rel = strings.Trim(rel, "/")
	if rel == "" || rel == "." {
		return base
	}
	ext := strings.ToLower(path.Ext(rel))
	switch ext {
	case ".md", ".markdown":
		rel = strings.TrimSuffix(rel, path.Ext(rel))
		switch strings.ToLower(path.Base(rel)) {
		case "readme", "index", "_index":
			if rel = path.Dir(rel); rel == "." {
				return base
			}
		}
	case "":
	default:
		return base + escapeSegments(rel)
	}
	return base + escapeSegments(rel) + "/"
}

// lookupFolded finds the page files whose path, lower-cased, is c
// lower-cased: a site that lower-cased its URLs (Hugo's default) linked
// to /functions/strings/trimprefix/ for functions/strings/TrimPrefix.md.
func (s *Site) lookupFolded(c string) []string {
	if s.folded == nil {
		s.folded = make(map[string][]string, len(s.pages))
		for p := range s.pages {
			k := strings.ToLower(p)
			s.folded[k] = append(s.folded[k], p)
		}
	}
	return s.folded[strings.ToLower(c)]
}
