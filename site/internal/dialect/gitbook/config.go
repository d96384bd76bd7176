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
//	structure:
//	  summary: TOC.md       # the table of contents, instead of SUMMARY.md
//	redirects:
//	  help: ./support.md    # an old URL path → the page it moved to
//
// docweave carries the file along (docstree.ToolConfigDir) and reads these
// two keys: the summary file's name, and the redirects, which become
// aliases of their target pages inside the repository's namespace, like
// front matter aliases — /help of repository gb redirects /docs/gb/help/
// to the page of support.md. root is not read: the configured paths say
// where the documentation is.

// ConfigFile is the name of GitBook's configuration file.
const ConfigFile = ".gitbook.yaml"

// Config is what docweave reads of a .gitbook.yaml.
type Config struct {
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
