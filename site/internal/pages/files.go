package pages

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/docweave/docweave/site/internal/dialect"
)

// repositoryFiles opens each unit's folder under content/ once, as an
// os.Root, so that a dialect reading a file of the page's repository
// (MkDocs' snippets) can never read outside it: not with "..", not with an
// absolute path, not through a symbolic link.
type repositoryFiles struct {
	units *unitsOfContent
	roots map[string]*os.Root
}

// in is the page rel as the dialects see its repository: its files, its
// path among them and the repository's documentation roots, and the same
// files as a Repo (a zero Page when rel belongs to no unit or its folder
// cannot be opened).
func (r *repositoryFiles) in(rel string) dialect.Page {
	u, ok := r.units.of(rel)
	if !ok {
		return dialect.Page{}
	}
	root, ok := r.roots[u.Root]
	if !ok {
		root, _ = os.OpenRoot(filepath.Join(r.units.contentDir, filepath.FromSlash(u.Root)))
		r.roots[u.Root] = root
	}
	if root == nil {
		return dialect.Page{}
	}
	files, page := root.FS(), strings.TrimPrefix(rel, u.Root+"/")
	return dialect.Page{Files: files, Path: page, DocRoots: u.DocRoots, Repo: dialect.Repo{Root: u.Root, Page: page,
		Size: func(p string) (int64, bool) {
			if full := u.Root + "/" + p; !u.Pages[full] && !u.Files[full] {
				return 0, false // not a file of the unit's tree
			}
			fi, err := fs.Stat(files, p)
			if err != nil || !fi.Mode().IsRegular() {
				return 0, false
			}
			return fi.Size(), true
		}}}
}

// close closes the folders opened.
func (r *repositoryFiles) close() {
	for _, root := range r.roots {
		if root != nil {
			root.Close()
		}
	}
}
