package docs

import (
	"io/fs"
	"net/http"
	"os"
	"regexp"
	"strings"
)

// A page's old URLs (front matter aliases and url, placed in its
// repository's namespace by the render) are Hugo redirect pages in the
// site: a small HTML file with a canonical link and a meta refresh to the
// page. Browsers follow those, but crawlers and link checkers do better
// with a real redirect, so the docs server answers such a file with a 301
// to the page, and the redirect page keeps working on any static host.

// maxAliasPageSize bounds the files read as possible redirect pages; Hugo
// writes them in a few hundred bytes, every real page is larger.
const maxAliasPageSize = 1024

// aliasPage matches Hugo's redirect page: the canonical link and the
// refresh name the same site path.
var aliasPage = regexp.MustCompile(`^\s*<!DOCTYPE html>\s*<html[^>]*>\s*<head>\s*<title>[^<]*</title>\s*<link rel="canonical" href="(/[^"]*)">\s*<meta charset="utf-8">\s*<meta http-equiv="refresh" content="0; url=(/[^"]*)">\s*</head>\s*</html>\s*$`)

// aliasTarget returns the page a Hugo redirect page leads to, or "" when
// the file is not one. Only a path on this site is taken: never another
// host, never a protocol-relative //host path.
func aliasTarget(name string, f *os.File, fi fs.FileInfo) string {
	if !strings.HasSuffix(name, ".html") || fi.Size() > maxAliasPageSize || fi.Size() == 0 {
		return ""
	}
	buf := make([]byte, fi.Size())
	if _, err := f.ReadAt(buf, 0); err != nil {
		return ""
	}
	m := aliasPage.FindSubmatch(buf)
	if m == nil || string(m[1]) != string(m[2]) || strings.HasPrefix(string(m[1]), "//") || strings.ContainsAny(string(m[1]), "\\\r\n") {
		return ""
	}
	return string(m[1])
}

// redirectToPage answers an old URL with a 301 to the page it names.
func redirectToPage(w http.ResponseWriter, target string) {
	w.Header().Set("Location", target)
	w.Header().Set("Cache-Control", CacheDocument)
	w.WriteHeader(http.StatusMovedPermanently)
}
