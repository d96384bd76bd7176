package gitbook

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/docweave/docweave/internal/mdlinks"
	"github.com/docweave/docweave/site/internal/links"
)

// A GitBook space may have a .gitbook.yaml at its repository root:
//
//	root: ./docs/           # the space's files, below the repository root
//	structure:
//	  summary: TOC.md       # the table of contents, instead of SUMMARY.md
//	redirects:
//	  help: ./support.md    # an old URL path → the page it moved to
//
// docweave carries the file along (docstree.ToolConfigDir) and reads
// these keys: root and the summary file's name, which say where the table
// of contents is (the space's root, relative to the documentation root;
// the configured paths still say which files are published), and the
// redirects, which become aliases of their target pages inside the
// repository's namespace, like front matter aliases — /help of
// repository gb redirects /docs/gb/help/ to the page of support.md.

// ConfigFile is the name of GitBook's configuration file.
const ConfigFile = ".gitbook.yaml"

// Config is what docweave reads of a .gitbook.yaml.
type Config struct {
	Root      string `yaml:"root"`
	Structure struct {
		Summary string `yaml:"summary"`
	} `yaml:"structure"`
	Redirects map[string]string `yaml:"redirects"`
}

// ParseConfig reads a .gitbook.yaml (data). A file that cannot be read
// gives an empty Config (nothing of a file read halfway) and the reason,
// as a sentence for the repository's issue.
func ParseConfig(data []byte) (Config, string) {
	var g Config
	if err := yaml.Unmarshal(data, &g); err != nil {
		return Config{}, fmt.Sprintf(".gitbook.yaml of the repository cannot be read, so its redirects and structure are not used: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	return g, ""
}

// rootIn is the space's root in unit u, as a content path. GitBook's
// root is a path from the repository's root ("./docs/"), and the unit
// holds the documentation roots' contents: a root at or below a
// documentation root is that place in the unit; any other root (outside
// the documentation) is read as the unit's root.
func (g Config) rootIn(u links.Unit) string {
	root := strings.Trim(path.Clean("/"+strings.TrimSpace(g.Root)), "/")
	if root == "" {
		return u.Root
	}
	if len(u.DocRoots) == 0 {
		return path.Join(u.Root, root)
	}
	for _, d := range u.DocRoots {
		d = strings.Trim(path.Clean("/"+d), "/")
		switch rest, below := strings.CutPrefix(root, d+"/"); {
		case d == "":
			return path.Join(u.Root, root) // the whole repository is documentation
		case root == d:
			return u.Root
		case below:
			return path.Join(u.Root, rest)
		}
	}
	return u.Root
}

// RedirectsByTarget resolves the configuration's redirects in unit u: by
// target page, the alias paths from the repository's root ("/help")
// that lead to it, sorted.
func (g Config) RedirectsByTarget(u links.Unit) map[string][]string {
	byTarget := map[string][]string{}
	for from, to := range g.Redirects {
		if target, ok := u.Lookup(path.Join(u.Root, strings.TrimPrefix(mdlinks.Path(to), "/"))); ok {
			byTarget[target] = append(byTarget[target], "/"+strings.Trim(from, "/"))
		}
	}
	for _, froms := range byTarget {
		sort.Strings(froms)
	}
	return byTarget
}
