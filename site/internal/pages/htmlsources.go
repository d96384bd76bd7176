package pages

import (
	"bytes"
	"strings"

	"github.com/docweave/docweave/internal/mdlinks"
)

// withHTMLSources returns page (front matter and body) with each source
// of its raw HTML that names a file of the repository written as the
// theme's docweave-src shortcode, which gives the file's URL on the site:
// the render hooks that place Markdown images never see raw HTML, and a
// browser resolves a relative source against the page's URL, one folder
// deeper than its file. linkPairs is the page's links parameter (the
// destinations links.Resolve found elsewhere). ok is false when nothing
// changed.
func withHTMLSources(page []byte, linkPairs any) ([]byte, bool) {
	if !mdlinks.MayHaveHTMLSource(page) {
		return nil, false
	}
	_, start, ok := frontMatterOf(page)
	if !ok {
		return nil, false
	}
	resolved := map[string]string{}
	list, _ := linkPairs.([]any)
	for _, p := range list {
		if pair, ok := p.([]any); ok && len(pair) == 2 {
			from, _ := pair[0].(string)
			to, _ := pair[1].(string)
			resolved[from] = to
		}
	}
	body := mdlinks.RewriteHTMLSources(page[start:], func(dest string) (string, bool) {
		if !mdlinks.Internal(dest) {
			return "", false
		}
		target, found := resolved[dest]
		if !found {
			if strings.HasPrefix(dest, "/") {
				return "", false // site-rooted and naming nothing: left as written (and reported)
			}
			target = dest
		}
		if found && (strings.HasPrefix(target, "/") || strings.Contains(target, "://")) {
			return target, true // another unit's page or the original site: a URL already
		}
		if strings.ContainsAny(target, "`\"") {
			return "", false
		}
		return "{{< docweave-src `" + target + "` >}}", true
	})
	if bytes.Equal(body, page[start:]) {
		return nil, false
	}
	out := make([]byte, 0, start+len(body))
	return append(append(out, page[:start]...), body...), true
}
