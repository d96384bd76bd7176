package pages

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/docweave/docweave/site/internal/links"
)

// A page's front matter may name other URLs for it: Hugo's aliases (old
// URLs that must keep working) and url (the URL its author wanted). Pages
// of many repositories share one site, so these are placed inside the
// page's own namespace, /docs/<content path>/ (with a version's segment):
// alias /about/ of a page of repository hugo is /docs/hugo/about/, and a
// relative alias is relative to the page's directory. Hugo writes a
// redirect page (meta refresh and canonical link) at each. The page stays
// at the path of its file, so url becomes one more alias. An alias that
// would leave the namespace, or take the place of a page or directory of
// the repository, is ignored with a warning.

// redirectsOf reads the aliases and url of a page's front matter, as
// written.
func redirectsOf(fm map[string]any) []string {
	var out []string
	for key, value := range fm {
		if !slices.Contains(redirectKeys, strings.ToLower(key)) {
			continue
		}
		switch v := value.(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, item := range v {
				if s, ok := item.(string); ok {
					out = append(out, s)
				}
			}
		case []string:
			out = append(out, v...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// namespacedAliases places the redirects of page rel (a slash path
// relative to content/) in its unit's namespace; it returns the aliases
// Hugo is given and the problems of the ones ignored.
func namespacedAliases(rel string, u links.Unit, redirects []string) ([]any, []string) {
	namespace := "/docs/" + u.Root + "/"
	var aliases []any
	var problems []string
	for _, r := range redirects {
		r = strings.TrimSpace(r)
		if r == "" || strings.Contains(r, "://") || strings.HasPrefix(r, "//") {
			problems = append(problems, fmt.Sprintf("front matter alias or url %q ignored: expected a path", r))
			continue
		}
		var p string
		if strings.HasPrefix(r, "/") {
			p = path.Join(namespace, r)
		} else {
			p = path.Join("/docs", path.Dir(rel), r)
		}
		if strings.HasSuffix(r, "/") {
			p += "/"
		}
		inside := strings.TrimPrefix(strings.TrimSuffix(p, "/"), "/docs/")
		switch {
		case !strings.HasPrefix(p, namespace) || p == namespace:
			problems = append(problems, fmt.Sprintf("front matter alias or url %q ignored: it leads out of the repository's pages (%s)", r, namespace))
		case u.Dirs[inside] || u.Pages[inside+".md"] || u.Files[inside]:
			problems = append(problems, fmt.Sprintf("front matter alias or url %q ignored: it is the URL of another page or file of the repository", r))
		default:
			aliases = append(aliases, p)
		}
	}
	return aliases, problems
}
