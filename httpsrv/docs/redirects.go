package docs

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
)

// A site ships its redirects in one map at its root, RedirectsFile, in
// Netlify's format: "from to 301" a line (site/internal/assembly/redirects.go writes it:
// front matter aliases and url, pages that moved). The docs server answers
// each from URL with a 301 to its target, the query kept, before looking
// for a file: the HTML redirect page Hugo wrote at the same place stays
// for static hosts that read no map. The map is read from the site the
// request opened, so it changes with the site, in the same swap; it is
// parsed once per version of the file.

// RedirectsFile is the redirect map's name at the root of a site. It is
// configuration of the host, never served itself.
const RedirectsFile = "_redirects"

// maxRedirectsSize bounds the map read: a line per alias and moved page.
const maxRedirectsSize = 16 << 20

// redirectMap maps a URL (as urlKey has it) to its target.
type redirectMap map[string]string

// redirectCache keeps the parsed map of the file version last read.
type redirectCache struct {
	mu  sync.Mutex
	key fileKey
	m   redirectMap
}

// mapOf returns the redirect map of the site root, nil when it has none
// (or it cannot be read: the site is then served without redirects).
func (c *redirectCache) mapOf(root *os.Root) redirectMap {
	// A request costs one stat: the file is opened only when it is not the
	// version the cache holds.
	fi, err := root.Stat(RedirectsFile)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxRedirectsSize {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m != nil && c.key == keyOf(RedirectsFile, fi) {
		return c.m
	}
	f, fi, err := openFile(root, RedirectsFile)
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi.IsDir() || fi.Size() > maxRedirectsSize {
		return nil
	}
	key := keyOf(RedirectsFile, fi)
	data, err := io.ReadAll(io.LimitReader(f, maxRedirectsSize))
	if err != nil {
		return nil
	}
	c.key, c.m = key, parseRedirects(data)
	return c.m
}

// parseRedirects reads the lines "from to [301]" of a redirect map. Only
// permanent redirects from a site path to a site path are taken: never
// another host, never a protocol-relative //host path; other lines, blank
// ones and # comments are skipped. The first line for a URL wins, as on
// Netlify.
func parseRedirects(data []byte) redirectMap {
	m := redirectMap{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") || (len(fields) > 2 && fields[2] != "301") {
			continue
		}
		from, to := fields[0], fields[1]
		if !sitePath(from) || !sitePath(to) {
			continue
		}
		if _, dup := m[urlKey(from)]; !dup {
			m[urlKey(from)] = to
		}
	}
	return m
}

// sitePath reports whether p is a path on this site.
func sitePath(p string) bool {
	return strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "//") && !strings.ContainsAny(p, "\\\r\n")
}

// urlKey is the form under which a request meets the map: without a
// trailing slash or index.html, so /a/, /a and /a/index.html are one URL.
func urlKey(u string) string {
	u = strings.TrimSuffix(u, "index.html")
	if u != "/" {
		u = strings.TrimSuffix(u, "/")
	}
	return u
}

// redirectTarget returns where the map sends a request for urlPath, with
// the request's query; "" when nowhere.
func (m redirectMap) redirectTarget(r *http.Request) string {
	to, ok := m[urlKey(r.URL.Path)]
	if !ok {
		return ""
	}
	if u, err := url.Parse(to); err == nil && r.URL.RawQuery != "" {
		if u.RawQuery != "" {
			u.RawQuery += "&" + r.URL.RawQuery
		} else {
			u.RawQuery = r.URL.RawQuery
		}
		to = u.String()
	}
	return to
}

// redirectPermanently answers an old URL with a 301 to target.
func redirectPermanently(w http.ResponseWriter, target string) {
	w.Header().Set("Location", target)
	w.Header().Set("Cache-Control", CacheDocument)
	w.WriteHeader(http.StatusMovedPermanently)
}
