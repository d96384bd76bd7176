// Package sitemap writes the site's sitemap.xml (sitemaps.org's protocol)
// and a robots.txt naming it, so that crawlers find every page and learn
// when each last changed without following the menu.
package sitemap

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// maxURLs is the protocol's limit of addresses in one sitemap file; a
// site with more gets a sitemap index (sitemap.xml) naming sitemap-1.xml,
// sitemap-2.xml, … of maxURLs each.
const maxURLs = 50000

// Entry is one page: its URL on the site (a path from the root, or
// absolute) and when its content last changed (zero: unknown).
type Entry struct {
	URL     string
	Changed time.Time
}

// Write writes sitemap.xml (and its parts, when the site has more than
// maxURLs pages) and robots.txt into dir for the given pages. base is the
// site's base URL: a path from the root is made absolute with its scheme
// and host, as crawlers require; with a base URL that is a path or empty,
// the addresses stay paths (set generator.base_url to an absolute URL for
// crawlers). It returns the names of the files written, relative to dir.
func Write(dir, base string, pages []Entry) ([]string, error) {
	origin := originOf(base)
	var written []string
	parts := (len(pages) + maxURLs - 1) / maxURLs
	if parts <= 1 {
		if err := writeURLSet(filepath.Join(dir, "sitemap.xml"), origin, pages); err != nil {
			return nil, err
		}
		written = append(written, "sitemap.xml")
	} else {
		var names []string
		for i := range parts {
			name := fmt.Sprintf("sitemap-%d.xml", i+1)
			if err := writeURLSet(filepath.Join(dir, name), origin, pages[i*maxURLs:min(len(pages), (i+1)*maxURLs)]); err != nil {
				return nil, err
			}
			names = append(names, name)
		}
		if err := writeIndex(filepath.Join(dir, "sitemap.xml"), origin+sitePath(base), names); err != nil {
			return nil, err
		}
		written = append(append(written, names...), "sitemap.xml")
	}
	robots := "User-agent: *\nAllow: /\n\nSitemap: " + origin + sitePath(base) + "sitemap.xml\n"
	if err := os.WriteFile(filepath.Join(dir, "robots.txt"), []byte(robots), 0o644); err != nil {
		return nil, fmt.Errorf("write robots.txt: %w", err)
	}
	return append(written, "robots.txt"), nil
}

// writeURLSet writes one <urlset> of pages.
func writeURLSet(name, origin string, pages []Entry) error {
	return writeXML(name, "urlset", func(w *bufio.Writer) {
		for _, p := range pages {
			w.WriteString("<url><loc>")
			xml.EscapeText(w, []byte(absolute(origin, p.URL)))
			w.WriteString("</loc>")
			if !p.Changed.IsZero() {
				w.WriteString("<lastmod>" + p.Changed.UTC().Format(time.RFC3339) + "</lastmod>")
			}
			w.WriteString("</url>\n")
		}
	})
}

// writeIndex writes a <sitemapindex> naming the parts, found under root.
func writeIndex(name, root string, parts []string) error {
	return writeXML(name, "sitemapindex", func(w *bufio.Writer) {
		for _, p := range parts {
			w.WriteString("<sitemap><loc>")
			xml.EscapeText(w, []byte(root+p))
			w.WriteString("</loc></sitemap>\n")
		}
	})
}

// writeXML writes an XML file of the protocol with root element root and
// the body body writes.
func writeXML(name, root string, body func(*bufio.Writer)) error {
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(name), err)
	}
	w := bufio.NewWriter(f)
	w.WriteString(xml.Header)
	w.WriteString(`<` + root + ` xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	body(w)
	w.WriteString(`</` + root + ">\n")
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(name), err)
	}
	return nil
}

// originOf is the scheme and host of an absolute base URL, else "".
func originOf(base string) string {
	if i := strings.Index(base, "://"); i > 0 {
		host, _, _ := strings.Cut(base[i+3:], "/")
		return base[:i+3] + host
	}
	return ""
}

// sitePath is the path of the site's root, with slashes around it ("/"
// or "/handbook/").
func sitePath(base string) string {
	p := base
	if i := strings.Index(base, "://"); i > 0 {
		_, p, _ = strings.Cut(base[i+3:], "/")
	}
	p = strings.Trim(p, "/")
	if p == "" {
		return "/"
	}
	return "/" + p + "/"
}

// absolute is u with origin before it when it is a path from the root.
func absolute(origin, u string) string {
	if strings.HasPrefix(u, "/") {
		return origin + u
	}
	return u
}
