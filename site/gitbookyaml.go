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
	"github.com/docweave/docweave/internal/mdlinks"
	"github.com/docweave/docweave/site/internal/links"
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
func (c *unitsOfContent) gitbookConfigOf(u links.Unit) gitbookConfig {
	if g, ok := c.gitbooks[u.Root]; ok {
		return g
	}
	var g gitbookConfig
	defer func() { c.gitbooks[u.Root] = g }()
	if c.contentDir == "" {
		return g
	}
	rel := path.Join(u.Root, docstree.ToolConfigDir, ".gitbook.yaml")
	data, err := os.ReadFile(filepath.Join(c.contentDir, filepath.FromSlash(rel)))
	if err != nil {
		return g
	}
	if err := yaml.Unmarshal(data, &g); err != nil {
		c.toolProblems[u.Root] = &Issue{Code: IssueToolConfigInvalid, Path: rel,
			Message: fmt.Sprintf(".gitbook.yaml of the repository cannot be read, so its redirects and structure are not used: %s", strings.TrimPrefix(err.Error(), "yaml: "))}
		g = gitbookConfig{} // nothing of a file read halfway
	}
	return g
}

// gitbookRedirectsTo returns the redirects of unit u's .gitbook.yaml that
// lead to page rel, as alias paths from the repository's root ("/help").
// The redirects are resolved once per unit, by target page.
func (c *unitsOfContent) gitbookRedirectsTo(u links.Unit, rel string) []string {
	byTarget, ok := c.gitbookRedirects[u.Root]
	if !ok {
		byTarget = map[string][]string{}
		for from, to := range c.gitbookConfigOf(u).Redirects {
			if target, ok := u.Lookup(path.Join(u.Root, strings.TrimPrefix(mdlinks.Path(to), "/"))); ok {
				byTarget[target] = append(byTarget[target], "/"+strings.Trim(from, "/"))
			}
		}
		for _, froms := range byTarget {
			sort.Strings(froms)
		}
		c.gitbookRedirects[u.Root] = byTarget
	}
	return byTarget[rel]
}

// isSummaryFile reports whether rel is unit u's table of contents: the
// file .gitbook.yaml names, else the SUMMARY.md at the unit's root.
func (c *unitsOfContent) isSummaryFile(u links.Unit, rel string) bool {
	if custom := c.gitbookConfigOf(u).Structure.Summary; custom != "" {
		return rel == path.Join(u.Root, path.Clean(strings.TrimPrefix(custom, "/")))
	}
	return path.Dir(rel) == u.Root && strings.EqualFold(path.Base(rel), "SUMMARY.md")
}
