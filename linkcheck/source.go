package linkcheck

import (
	"io/fs"
	"path"
	"path/filepath"
	"strings"
)

// docsSection is where the site serves the repositories' pages: the
// Markdown of content/<content path>/ is published under
// docs/<content path>/ (see package site).
const docsSection = "docs/"

// Repository is an aggregated repository, as far as mapping pages back to
// their source goes.
type Repository struct {
	Name        string
	Forge       string
	ContentPath string // under content/ and under /docs/, like "repo" or "github/repo"
	// Version is the branch or tag this entry is a version of, with
	// versioning (ContentPath then ends in the version's slug).
	Version string
	// Roots are the repository's documentation roots (repositories[].paths).
	// With exactly one, source files are reported relative to the
	// repository ("docs/guide/install.md"); with several, whose trees are
	// merged, relative to the documentation root ("guide/install.md").
	Roots []string
}

// PageRef is a page holding links: where it is published and what it was
// rendered from.
type PageRef struct {
	File       string // HTML file relative to the public directory
	URL        string // absolute with a base_url, else the site path
	SourceFile string // "" for pages of no repository or without a Markdown source
	Repository string
	Version    string // the page's branch or tag, with versioning
	Forge      string
}

// sourceMap maps published pages back to the Markdown they came from, by
// the layout the site package uses: content/<path>.md is served at
// docs/<path>/, and a directory's _index.md or index.md at the directory.
// File names are kept as they are (disablePathToLower), so the mapping is
// exact unless a page sets its own url or slug in front matter; such a
// page keeps its repository but gets no source file.
type sourceMap struct {
	repos   []Repository
	content map[string]bool // slash paths of files under the content directory
}

func newSourceMap(contentDir string, repos []Repository) *sourceMap {
	m := &sourceMap{repos: repos, content: map[string]bool{}}
	if contentDir == "" {
		return m
	}
	_ = filepath.WalkDir(contentDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil // a missing content directory only loses source files
		}
		if rel, err := filepath.Rel(contentDir, p); err == nil {
			m.content[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	return m
}

// lookup fills the source fields of a page.
func (m *sourceMap) lookup(file string) (sourceFile string, repo *Repository) {
	if !strings.HasPrefix(file, docsSection) {
		return "", nil
	}
	rest := strings.TrimPrefix(file, docsSection)
	rest = strings.TrimSuffix(strings.TrimSuffix(rest, "index.html"), "/")
	for i := range m.repos {
		cp := m.repos[i].ContentPath
		if (rest == cp || strings.HasPrefix(rest, cp+"/")) && (repo == nil || len(cp) > len(repo.ContentPath)) {
			repo = &m.repos[i]
		}
	}
	if repo == nil {
		return "", nil
	}
	for _, candidate := range []string{rest + ".md", rest + ".markdown", rest + "/_index.md", rest + "/index.md", rest + "/_index.markdown", rest + "/index.markdown"} {
		if !m.content[candidate] {
			continue
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(candidate, repo.ContentPath), "/")
		if len(repo.Roots) == 1 {
			rel = path.Join(path.Clean(repo.Roots[0]), rel)
		}
		return rel, repo
	}
	return "", repo
}
