package config

import (
	"fmt"
	"net/url"
	"path"
	"strings"
)

// validateOriginalSite checks repositories[].original_site: an absolute
// http(s) URL without credentials, query or fragment, and at least one
// path prefix, each starting and ending with "/", mapped to a clean folder
// inside the repository.
func validateOriginalSite(l *problemList, key string, o OriginalSite) {
	if !o.IsSet() {
		return
	}
	if u, err := url.Parse(o.URL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		l.add(key+".url", "%q is not an absolute http(s) URL; expected the original site's address such as https://example.org/", o.URL)
	} else if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		l.add(key+".url", "%q carries credentials, a query or a fragment; expected the site's address only", u.Redacted())
	}
	if len(o.Paths) == 0 {
		l.add(key+".paths", "is empty; expected at least one URL path prefix mapped to a repository folder, such as /docs/: docs/")
	}
	for _, prefix := range sortedStringKeys(o.Paths) {
		k := key + ".paths." + prefix
		if !strings.HasPrefix(prefix, "/") || !strings.HasSuffix(prefix, "/") || path.Clean(prefix)+"/" != prefix && prefix != "/" {
			l.add(k, "%q is not a clean URL path prefix starting and ending with /; expected such as /docs/", prefix)
		}
		if msg := originalFolderProblem(o.Paths[prefix]); msg != "" {
			l.add(k, "%s", msg)
		}
	}
}

// originalFolderProblem explains why folder is not a clean folder of the
// repository, or returns "".
func originalFolderProblem(folder string) string {
	f := strings.TrimSuffix(folder, "/")
	switch {
	case folder == "" || folder == "/" || f == ".":
		return ""
	case strings.HasPrefix(folder, "/") || strings.Contains(folder, "\\"):
		return fmt.Sprintf("folder %q is absolute or holds a backslash; expected a folder relative to the repository's root such as docs/", folder)
	case path.Clean(f) != f || f == ".." || strings.HasPrefix(f, "../"):
		return fmt.Sprintf("folder %q is not a clean path inside the repository; expected such as docs/ or public/assets/", folder)
	}
	for _, part := range strings.Split(f, "/") {
		if strings.EqualFold(part, ".git") {
			return fmt.Sprintf("folder %q lies in the repository's .git directory; expected a folder of its files", folder)
		}
	}
	return ""
}
