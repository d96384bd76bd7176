package pages

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gohugoio/hugo/common/htime"
	"github.com/gohugoio/hugo/resources/page/pagemeta"
)

// Front matter comes from other tools (Jekyll, GitBook, other Hugo themes)
// and is untrusted: a key can stop Hugo's build ("date: someday") or move a
// page anywhere on the site ("url: /" replaces the home page). checkFrontMatter
// removes such keys before Hugo sees them; every other key is kept, since
// templates and taxonomies read it.

// dateKeys are the front matter keys Hugo reads as dates; a value that is
// not a date stops Hugo's whole build.
var dateKeys = []string{"date", "publishdate", "pubdate", "published", "lastmod", "modified", "expirydate", "unpublishdate"}

// placementKeys would place the page, or pages below it, somewhere other
// than its file's path: onto another repository's pages or the home page,
// or into other sites of Hugo's sites matrix (sites). Of a cascade, only
// its build options stay (see cascadebuild.go).
var placementKeys = []string{"cascade", "sites"}

// redirectKeys name other URLs of the page: Hugo's aliases, and url,
// which would move the page. They become redirects to the page inside its
// repository's namespace (see aliases.go); the page itself stays at the
// path of its file.
var redirectKeys = []string{"url", "aliases"}

// templateKeys choose the templates and output formats a page is rendered
// with. Those are the theme's choice, which picks a template by the kind
// of page: a value written for another tool ("layout: post") names
// nothing in the theme, and one that names a theme template meant for
// other pages ("layout: version-redirect") would make the page something
// else. They are dropped without a report, as every other tool's pages
// carry them.
var templateKeys = []string{"layout", "type", "outputs"}

// buildKeys are Hugo's build options of the page itself (render, list,
// publishResources); a value Hugo cannot decode ("build: 1.2" written for
// another tool) stops its whole build.
var buildKeys = []string{"build", "_build"}

// markdownMarkups are the values of "markup" that mean Markdown, the only
// markup a render handles without an external program.
var markdownMarkups = []string{"", "md", "markdown", "goldmark"}

// checkFrontMatter returns fm without the keys that cannot be used, whether
// anything changed, and one message per key removed for a reason the
// author should know. fm itself is not modified; when nothing changes the
// returned map is fm.
func checkFrontMatter(fm map[string]any) (map[string]any, bool, []string) {
	var problems []string
	drop := map[string]bool{}
	replace := map[string]any{}
	keys := make([]string, 0, len(fm))
	for k := range fm {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		value := fm[key]
		lower := strings.ToLower(key)
		switch {
		case lower == "published":
			// Jekyll's published: false hides a page; Hugo reads
			// "published" as a date. Handled below.
			if _, ok := value.(bool); ok {
				drop[key] = true
				continue
			}
			if !isDate(value) {
				drop[key] = true
				problems = append(problems, fmt.Sprintf("front matter %s: %v is not a date; ignored", key, value))
			}
		case slices.Contains(dateKeys, lower):
			if !isDate(value) {
				drop[key] = true
				problems = append(problems, fmt.Sprintf("front matter %s: %v is not a date; ignored", key, value))
			}
		case slices.Contains(redirectKeys, lower):
			drop[key] = true // read by redirectsOf, placed by namespacedAliases
		case lower == "cascade":
			kept, dropped := cascadeBuild(value)
			if dropped == "" {
				continue
			}
			drop[key] = true
			if kept != nil {
				replace[key] = kept
				problems = append(problems, fmt.Sprintf("front matter %s: only its build options are kept, the rest ignored (%s): a page is published at the path of its file, so it cannot replace another page", key, dropped))
				continue
			}
			problems = append(problems, fmt.Sprintf("front matter %s ignored: a page is published at the path of its file, so it cannot replace another page; of a cascade only build options (render, list, publishResources) are kept, and it has none (it sets %s)", key, dropped))
		case slices.Contains(placementKeys, lower):
			drop[key] = true
			problems = append(problems, fmt.Sprintf("front matter %s ignored: a page is published at the path of its file, so it cannot replace another page", key))
		case lower == "slug":
			s, ok := value.(string)
			if !ok || strings.ContainsAny(s, `/\`) || strings.Contains(s, "..") {
				drop[key] = true
				problems = append(problems, fmt.Sprintf("front matter slug %q ignored: expected a single path segment", fmt.Sprint(value)))
			}
		case lower == "markup":
			s, _ := value.(string)
			if !slices.Contains(markdownMarkups, strings.ToLower(s)) {
				drop[key] = true
				problems = append(problems, fmt.Sprintf("front matter markup %q ignored: pages are rendered as Markdown", fmt.Sprint(value)))
			}
		case slices.Contains(templateKeys, lower):
			// An unknown output format also stops Hugo's build.
			drop[key] = true
		case isNavKey(lower):
			drop[key] = true // another tool's menu keys: read as weight and linkTitle below (navorder.go)
		case slices.Contains(buildKeys, lower):
			if _, err := pagemeta.DecodeBuildConfig(value); err != nil {
				drop[key] = true
				problems = append(problems, fmt.Sprintf("front matter %s ignored: not Hugo's build options (render, list, publishResources)", key))
			}
		}
	}
	if len(drop) == 0 {
		return fm, false, problems
	}
	out := make(map[string]any, len(fm))
	for k, v := range fm {
		if !drop[k] {
			out[k] = v
		}
	}
	for k, v := range replace {
		out[k] = v
	}
	navOrder(fm, out)
	// Jekyll's "published: false" keeps its meaning: the page is a draft,
	// and drafts are not rendered.
	for k, v := range fm {
		if strings.EqualFold(k, "published") {
			if b, ok := v.(bool); ok && !b {
				out["draft"] = true
			}
		}
	}
	return out, true, problems
}

// isDate reports whether Hugo would accept v as a date.
func isDate(v any) bool {
	if v == nil {
		return true
	}
	if s, ok := v.(string); ok && strings.TrimSpace(s) == "" {
		return true
	}
	_, err := htime.ToTimeInDefaultLocationE(v, time.UTC)
	return err == nil
}
