package site

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/gohugoio/hugo/hugolib"
)

// countMarkdownPages counts the pages Hugo rendered from the repositories'
// Markdown files, leaving out the section pages docweave generated.
func countMarkdownPages(sites *hugolib.HugoSites, sectionsDir string) int {
	prefix := sectionsDir + string(filepath.Separator)
	n := 0
	for _, s := range sites.Sites {
		for _, p := range s.Pages() {
			f := p.File()
			if f == nil || !isMarkdown(f.Filename()) || strings.HasPrefix(f.Filename(), prefix) {
				continue
			}
			n++
		}
	}
	return n
}

// countFiles counts the regular files below dir.
func countFiles(dir string) (int, error) {
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
