package site

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/docweave/docweave/docstree"
)

// A GitBook space may have a .gitbook.yaml at its repository root:
//
//	structure:
//	  summary: TOC.md       # the table of contents, instead of SUMMARY.md
//	redirects:
//	  help: ./support.md    # an old URL path → the page it moved to
//
// docweave carries the file along (docstree.ToolConfigDir) and reads these
// two keys: the summary file's name, and the redirects, which become
// aliases of their target pages inside the repository's namespace, like
// front matter aliases (aliases.go) — /help of repository gb redirects
// /docs/gb/help/ to the page of support.md. root is not read: the
// configured paths say where the documentation is.

// gitbookConfig is what docweave reads of a .gitbook.yaml.
type gitbookConfig struct {
	Structure struct {
		Summary string `yaml:"summary"`
	} `yaml:"structure"`
	Redirects map[string]string `yaml:"redirects"`
}

// gitbookConfigOf reads unit u's .gitbook.yaml, once; a file that cannot
// be read is recorded as the unit's tool problem and read as empty.
func (c *unitsOfContent) gitbookConfigOf(u unitFiles) gitbookConfig {
	if g, ok := c.gitbooks[u.root]; ok {
		return g
	}
	var g gitbookConfig
	defer func() { c.gitbooks[u.root] = g }()
	if c.contentDir == "" {
		return g
	}
	rel := path.Join(u.root, docstree.ToolConfigDir, ".gitbook.yaml")
	data, err := os.ReadFile(filepath.Join(c.contentDir, filepath.FromSlash(rel)))
	if err != nil {
		return g
	}
	if err := yaml.Unmarshal(data, &g); err != nil {
		c.toolProblems[u.root] = &Issue{Code: IssueToolConfigInvalid, Path: rel,
			Message: fmt.Sprintf(".gitbook.yaml of the repository cannot be read, so its redirects and structure are not used: %s", strings.TrimPrefix(err.Error(), "yaml: "))}
		g = gitbookConfig{} // nothing of a file read halfway
	}
	return g
}

// gitbookRedirectsTo returns the redirects of unit u's .gitbook.yaml that
// lead to page rel, as alias paths from the repository's root ("/help").
// The redirects are resolved once per unit, by target page.
func (c *unitsOfContent) gitbookRedirectsTo(u unitFiles, rel string) []string {
	byTarget, ok := c.gitbookRedirects[u.root]
	if !ok {
		byTarget = map[string][]string{}
		for from, to := range c.gitbookConfigOf(u).Redirects {
			if target, ok := u.lookup(path.Join(u.root, strings.TrimPrefix(linkPath(to), "/"))); ok {
				byTarget[target] = append(byTarget[target], "/"+strings.Trim(from, "/"))
			}
		}
		for _, froms := range byTarget {
			sort.Strings(froms)
		}
		c.gitbookRedirects[u.root] = byTarget
	}
	return byTarget[rel]
}

// isSummaryFile reports whether rel is unit u's table of contents: the
// file .gitbook.yaml names, else a SUMMARY.md at the unit's root.
func (c *unitsOfContent) isSummaryFile(u unitFiles, rel string) bool {
	if custom := c.gitbookConfigOf(u).Structure.Summary; custom != "" {
		return rel == path.Join(u.root, path.Clean(strings.TrimPrefix(custom, "/")))
	}
	return u.isSummary(rel)
}
