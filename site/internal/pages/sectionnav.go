package pages

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/docweave/docweave/site/internal/dialect/docusaurus"
	"github.com/docweave/docweave/site/internal/model"
)

// A folder's place and title in the menu come from the authors'
// navigation too, not only its pages': a Docusaurus _category_.json names
// it and places it; a GitBook SUMMARY.md or a MkDocs nav lists its pages,
// and the folder takes the place of the first and the name of the group
// ("## Using it", a nav section) holding most of them (when its parent's
// pages are not mostly in the same group), or else the title of the
// entry most of its pages are nested under, or else the title of its
// first page when that page sits in the folder itself. A folder
// with an index page of its own is named by that page (its title, or its
// entry in the navigation); a category file still names and places it.

// SectionNav is what the authors' navigation says of a folder.
type SectionNav struct {
	Title  string // its title in the menu; "" when the navigation gives none
	Weight int    // its place among its siblings; 0 when none
}

// loadCategories reads the Docusaurus category files of the content, once
// per render, into c.categories; a file too large or unreadable is an
// issue naming it, and the folder keeps its own title and place.
func (c *unitsOfContent) loadCategories() []model.Issue {
	c.categories = map[string]SectionNav{}
	var files []string
	for f := range c.files {
		if slices.Contains(docusaurus.CategoryFiles, path.Base(f)) {
			files = append(files, f)
		}
	}
	sort.Strings(files)
	var issues []model.Issue
	for _, rel := range files {
		dir := path.Dir(rel)
		if _, seen := c.categories[dir]; seen {
			continue // _category_.json comes first
		}
		full := filepath.Join(c.contentDir, filepath.FromSlash(rel))
		info, err := os.Stat(full)
		if err != nil {
			continue
		}
		if info.Size() > docusaurus.MaxCategoryBytes {
			issues = append(issues, model.Issue{Code: model.IssueToolConfigInvalid, Path: rel, Message: fmt.Sprintf(
				"%s is %d bytes, more than a category file's %d: the folder keeps its own title and place in the menu", path.Base(rel), info.Size(), docusaurus.MaxCategoryBytes)})
			continue
		}
		data, err := os.ReadFile(full)
		if err != nil {
			continue
		}
		cat, problem := docusaurus.ParseCategory(path.Base(rel), data)
		if problem != "" {
			issues = append(issues, model.Issue{Code: model.IssueToolConfigInvalid, Path: rel, Message: problem})
			continue
		}
		nav := SectionNav{Title: cat.Label}
		if pos, ok := position(cat.Position); ok && cat.Positioned {
			nav.Weight = weightOf(pos)
		}
		c.categories[dir] = nav
	}
	return issues
}

// isIndexPage reports whether rel may be its folder's own page.
func isIndexPage(rel string) bool {
	base := path.Base(rel)
	switch strings.ToLower(strings.TrimSuffix(base, path.Ext(base))) {
	case "_index", "index", "readme":
		return true
	}
	return false
}

// sectionNavs is what the navigation read while preparing the pages says
// of their folders, by content path (see above).
func (c *unitsOfContent) sectionNavs() map[string]SectionNav {
	out := map[string]SectionNav{}
	type folder struct {
		first      string // the content path of its first page in the navigation
		weight     int
		firstTitle string
		groups     map[string]int // its pages by group
		parents    map[string]int // its pages by the entry they are nested under
		pages      int
	}
	// most is the key counting more than half of f's pages ("" when none does).
	most := func(counts map[string]int, f *folder) string {
		for k, n := range counts {
			if 2*n > f.pages {
				return k
			}
		}
		return ""
	}
	group := func(f *folder) string { return most(f.groups, f) }
	for root, entries := range c.summaries {
		folders := map[string]*folder{}
		for rel, e := range entries {
			for d := path.Dir(rel); strings.HasPrefix(d, root+"/"); d = path.Dir(d) {
				f := folders[d]
				if f == nil {
					f = &folder{first: rel, weight: e.Weight, firstTitle: e.Title, groups: map[string]int{}, parents: map[string]int{}}
					folders[d] = f
				}
				if e.Weight < f.weight {
					f.first, f.weight, f.firstTitle = rel, e.Weight, e.Title
				}
				f.groups[e.Group]++
				f.parents[e.Parent]++
				f.pages++
			}
		}
		for d, f := range folders {
			nav := SectionNav{Weight: f.weight}
			g := group(f)
			parent := folders[path.Dir(d)]
			switch {
			case g != "" && (parent == nil || group(parent) != g):
				nav.Title = g // the outermost folder of its group
			case most(f.parents, f) != "":
				nav.Title = most(f.parents, f) // its pages are nested under one entry
			case path.Dir(f.first) == d && !isIndexPage(f.first):
				nav.Title = f.firstTitle
			}
			out[d] = nav
		}
	}
	for d, cat := range c.categories {
		nav := out[d]
		if cat.Title != "" {
			nav.Title = cat.Title
		}
		if cat.Weight != 0 {
			nav.Weight = cat.Weight
		}
		out[d] = nav
	}
	return out
}
