package hugobuild

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/gohugoio/hugo/hugolib"
)

// MarkdownPages lists the pages Hugo rendered from the repositories'
// Markdown files, by file (a slash path relative to content/, as the
// content tree names it: a checked copy counts as the file it stands
// for), leaving out the section pages docweave generated.
func MarkdownPages(sites *hugolib.HugoSites, l Layout) map[string]int {
	out := map[string]int{}
	generated := l.SectionsDir + string(filepath.Separator)
	for _, s := range sites.Sites {
		for _, p := range s.Pages() {
			f := p.File()
			if f == nil || !IsMarkdown(f.Filename()) || strings.HasPrefix(f.Filename(), generated) {
				continue
			}
			name := f.Filename()
			rel := name
			for _, root := range []string{l.ContentDir, l.PagesDir} {
				if r, err := filepath.Rel(root, name); err == nil && !strings.HasPrefix(r, "..") {
					rel = filepath.ToSlash(r)
					break
				}
			}
			out[rel]++
		}
	}
	return out
}

// CountFiles counts the regular files below dir.
func CountFiles(dir string) (int, error) {
	n := 0
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			n++
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("count published files in %s: %w", dir, err)
	}
	return n, nil
}
