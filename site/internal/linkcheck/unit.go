package linkcheck

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/docweave/docweave/site/internal/links"
	"github.com/docweave/docweave/site/internal/model"
)

// UnitInput is a rendered unit as Unit reads it.
type UnitInput struct {
	// Unit is the unit's content path.
	Unit string
	// Facts are the unit's facts as the theme wrote them.
	Facts []byte
	// Publish is the render's output directory (site paths below the base
	// path); BasePath the site's path ("/", "/handbook/").
	Publish, BasePath string
	// IndexFiles maps a content directory to the file mounted as its
	// _index (a README.md): Hugo names the page by _index.md.
	IndexFiles map[string]string
	// Links are the links to check, per page file (links.Check).
	Links map[string][]links.Check
	// IDs are the pages' stable ids (front matter id), by page file.
	IDs map[string]string
}

// UnitOutcome is what Unit found.
type UnitOutcome struct {
	// Facts are the unit's facts with each page's ids and the links into
	// other units added.
	Facts []byte
	// Issues are the missing fragments of links within the unit.
	Issues []model.Issue
	// Checked counts the fragments checked in the unit, Missing those
	// missing, Out the links left for the assembly.
	Checked, Missing, Out int
}

// Unit reads the ids of every page of a rendered unit, checks the
// fragments of the unit's links to its own pages, and returns its facts
// with the ids and the links into other units added.
func Unit(in UnitInput) (UnitOutcome, error) {
	f, err := readFacts(in.Facts)
	if err != nil {
		return UnitOutcome{}, err
	}
	byFile := map[string]string{}   // page file (content/) → URL key
	byURL := map[string]string{}    // URL key (page or alias) → page URL key
	declared := map[string]string{} // stable id → page URL
	anchors := make(map[string][]string, len(f.Pages))
	ids := make(map[string]map[string]bool, len(f.Pages))
	urls := make(map[string]string, len(f.Pages)) // URL key → URL
	for _, p := range f.Pages {
		key := urlKey(p.URL)
		urls[key] = p.URL
		byURL[key] = key
		for _, a := range p.Aliases {
			byURL[urlKey(a)] = key
		}
		byFile[path.Join(in.Unit, strings.TrimPrefix(p.Path, "/"))] = key // a directory's page
		if file, ok := strings.CutPrefix(p.File, "docs/"); ok {
			if base := path.Base(file); strings.TrimSuffix(base, path.Ext(base)) == "_index" {
				if src, ok := in.IndexFiles[path.Dir(file)]; ok {
					file = src
				}
			}
			byFile[file] = key
			if id, ok := in.IDs[file]; ok && strings.HasPrefix(file, in.Unit+"/") {
				declared[id] = p.URL
			}
		}
		list, err := pageIDs(in.Publish, in.BasePath, p.URL)
		if err != nil {
			return UnitOutcome{}, err
		}
		anchors[p.URL] = list
		set := make(map[string]bool, len(list))
		for _, id := range list {
			set[id] = true
		}
		ids[key] = set
	}
	root := urlKey(path.Join(in.BasePath, "docs", in.Unit) + "/")
	out := UnitOutcome{}
	var outLinks []OutLink
	for _, file := range sortedFiles(in.Links, in.Unit) {
		for _, c := range in.Links[file] {
			var page string
			switch {
			case c.Target != "":
				page = byFile[c.Target]
			case c.To != "":
				u := siteURL(in.BasePath, c.To)
				if _, _, ok := links.XrefID(c.Dest); ok {
					outLinks = append(outLinks, OutLink{File: file, Line: c.Line, Dest: c.Dest, URL: urlKey(u), Fragment: c.Fragment})
					continue // settled at the assembly, against every unit's ids
				}
				if !pageLike(u) {
					continue
				}
				if k := urlKey(u); k != root && !strings.HasPrefix(k, root+"/") {
					outLinks = append(outLinks, OutLink{File: file, Line: c.Line, Dest: c.Dest, URL: k, Fragment: c.Fragment})
					continue
				}
				page = byURL[urlKey(u)]
			}
			if page == "" || !checkable(c.Fragment) {
				continue // a page not rendered, or a file: reported elsewhere
			}
			out.Checked++
			if !ids[page][c.Fragment] {
				out.Missing++
				out.Issues = append(out.Issues, FragmentIssue(file, c.Line, c.Dest, urls[page], c.Fragment, ids[page]))
			}
		}
	}
	out.Out = len(outLinks)
	if out.Facts, err = withAnchors(in.Facts, anchors, outLinks, declared); err != nil {
		return UnitOutcome{}, err
	}
	return out, nil
}

// checkable reports whether a fragment names an element to look for: not
// none, and not "top", which a browser takes as the page's top.
func checkable(frag string) bool {
	return frag != "" && !strings.EqualFold(frag, "top")
}

// siteURL is the site path to: a site path given without the base path
// gets it.
func siteURL(basePath, to string) string {
	if basePath != "/" && !strings.HasPrefix(to, basePath) {
		return path.Join(basePath, to)
	}
	return to
}

// pageIDs reads the ids of the page published at url (under publish, the
// site's path basePath stripped); none when it is not published as HTML
// there.
func pageIDs(publish, basePath, url string) ([]string, error) {
	rel, ok := strings.CutPrefix(url, basePath)
	if !ok || strings.Contains(rel, "..") {
		return nil, nil
	}
	file := filepath.Join(publish, filepath.FromSlash(rel))
	if strings.HasSuffix(url, "/") || rel == "" {
		file = filepath.Join(file, "index.html")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("read the ids of page %s: %w", url, err)
	}
	return IDs(data), nil
}

// sortedFiles are the page files of links below unit, sorted.
func sortedFiles(m map[string][]links.Check, unit string) []string {
	out := make([]string, 0, len(m))
	for f := range m {
		if strings.HasPrefix(f, unit+"/") {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}
