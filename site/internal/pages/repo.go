package pages

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/docweave/docweave/site/internal/dialect"
)

// repoOf is the repository (or version) of page rel as the dialects see
// it: the files of its unit, each one's size read from disk only when a
// dialect asks for it. A page of no repository has none.
func (c *unitsOfContent) repoOf(rel string) dialect.Repo {
	u, ok := c.of(rel)
	if !ok {
		return dialect.Repo{}
	}
	return dialect.Repo{Root: u.Root, Page: strings.TrimPrefix(rel, u.Root+"/"), Size: func(p string) (int64, bool) {
		full := u.Root + "/" + p
		if !u.Pages[full] && !u.Files[full] {
			return 0, false
		}
		fi, err := os.Lstat(filepath.Join(c.contentDir, filepath.FromSlash(full)))
		if err != nil || !fi.Mode().IsRegular() {
			return 0, false
		}
		return fi.Size(), true
	}}
}
