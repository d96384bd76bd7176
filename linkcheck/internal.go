package linkcheck

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
)

// siteIndex is the rendered site as internal links see it: its files and,
// for each HTML page, the ids a #fragment may name.
type siteIndex struct {
	files map[string]bool            // slash paths relative to the public directory
	ids   map[string]map[string]bool // HTML file → ids
	// redirects maps a redirect page to the site path it sends readers
	// to (with the fragment they came with).
	redirects map[string]string
}

// indexFiles lists every file under the public directory and returns the
// HTML pages among them, sorted.
func indexFiles(public string) (*siteIndex, []string, error) {
	ix := &siteIndex{files: map[string]bool{}, ids: map[string]map[string]bool{}, redirects: map[string]string{}}
	var pages []string
	err := filepath.WalkDir(public, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(public, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		ix.files[rel] = true
		if strings.HasSuffix(rel, ".html") || strings.HasSuffix(rel, ".htm") {
			pages = append(pages, rel)
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("list site %s: %w", public, err)
	}
	sort.Strings(pages)
	return ix, pages, nil
}

// addIDs records the ids of one page.
func (ix *siteIndex) addIDs(file string, ids []string) {
	set := make(map[string]bool, len(ids))
	for _, id := range ids {
		set[id] = true
	}
	ix.ids[file] = set
}

// addRedirects records the redirect pages among pages whose refresh
// leads within the site.
func (ix *siteIndex) addRedirects(res *resolver, pages []string, links []PageLinks) {
	for i, p := range pages {
		if links[i].Refresh == "" {
			continue
		}
		if t := res.resolve(res.pageURL(p), links[i].Base, RawLink{URL: links[i].Refresh}); t.Kind == KindInternal {
			ix.redirects[p] = t.Path
		}
	}
}

// file finds the published file a site path names the way a static server
// does: a directory path serves its index.html, and a path without a
// trailing slash may also name a directory or an .html file.
func (ix *siteIndex) file(p string) (string, bool) {
	candidates := []string{p}
	switch {
	case p == "":
		candidates = []string{"index.html"}
	case strings.HasSuffix(p, "/"):
		candidates = []string{p + "index.html"}
	default:
		candidates = append(candidates, p+"/index.html", p+".html")
	}
	for _, c := range candidates {
		if ix.files[c] {
			return c, true
		}
	}
	return "", false
}

// check gives an internal target its verdict.
func (ix *siteIndex) check(t Target) Verdict {
	page, _, _ := strings.Cut(t.URL, "#")
	if page == "" {
		page = "/" + t.Path
	}
	file, ok := ix.file(t.Path)
	if !ok {
		return Verdict{Status: StatusBroken, Reason: ReasonMissingFile, Error: "no such page or file in the site: " + page}
	}
	if t.Fragment == "" || strings.EqualFold(t.Fragment, "top") {
		return Verdict{Status: StatusOK}
	}
	if to, ok := ix.redirects[file]; ok {
		// A redirect page keeps the fragment: look it up where it leads.
		if next, ok := ix.file(to); ok {
			file = next
		}
	}
	ids, isPage := ix.ids[file]
	if !isPage || ids[t.Fragment] {
		return Verdict{Status: StatusOK}
	}
	return Verdict{Status: StatusBroken, Reason: ReasonMissingFragment, Error: fmt.Sprintf("no element with id %q on %s", t.Fragment, page)}
}
