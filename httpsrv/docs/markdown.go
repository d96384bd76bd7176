package docs

import (
	"mime"
	"strconv"
	"strings"
)

// A page of the site is published twice: index.html for readers and
// index.md, its Markdown copy, for the tools people read documentation
// through (site/internal/mdcopy). A request for a page's URL that prefers
// Markdown in its Accept header gets the copy, so a tool needs to know no
// other URL; the answer says Vary: Accept so caches keep both.

// markdownType is the media type of a Markdown copy (RFC 7763).
const markdownType = "text/markdown; charset=utf-8"

// wantsMarkdown reports whether an Accept header prefers text/markdown to
// text/html: it names text/markdown with a quality above zero and at
// least HTML's. A browser (text/html first, */* after) gets HTML.
func wantsMarkdown(accept string) bool {
	if accept == "" {
		return false
	}
	md, html := -1.0, -1.0
	for _, part := range strings.Split(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if v, ok := params["q"]; ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		switch mt {
		case "text/markdown", "text/x-markdown":
			md = max(md, q)
		case "text/html":
			html = max(html, q)
		}
	}
	return md > 0 && md >= html
}
