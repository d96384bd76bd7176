package docstree

import (
	"net/url"
	"path"
	"strings"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/mdlinks"
)

// originalFile is the repository path that dest, a page's link, names
// when it is a URL of the repository's original site (o) — absolute, or
// rooted as the site's pages write them — under one of its path prefixes
// (the longest that matches). The site resolves such links the same way
// (site/internal/links), so a file they name outside the documentation
// roots is checked out as a referenced file.
func originalFile(dest string, o config.OriginalSite) (string, bool) {
	if !o.IsSet() {
		return "", false
	}
	site, err := url.Parse(o.URL)
	if err != nil || site.Host == "" {
		return "", false
	}
	var p string
	switch {
	case strings.HasPrefix(dest, "/") && !strings.HasPrefix(dest, "//"):
		p = mdlinks.Path(dest)
	case strings.HasPrefix(dest, "http://") || strings.HasPrefix(dest, "https://"):
		u, err := url.Parse(dest)
		if err != nil || !strings.EqualFold(u.Host, site.Host) {
			return "", false
		}
		p = u.Path
	default:
		return "", false
	}
	base := strings.TrimSuffix(site.Path, "/")
	best, folder := "", ""
	for prefix, f := range o.Paths {
		full := base + prefix
		if strings.HasPrefix(p, full) && len(full) > len(best) {
			best, folder = full, f
		}
	}
	if best == "" {
		return "", false
	}
	c := path.Join(strings.Trim(folder, "/"), strings.TrimPrefix(p, best))
	return c, c != "." && c != ""
}
