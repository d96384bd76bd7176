package docstree

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/docweave/docweave/report"
)

// PruneWorkspace removes top-level entries of a checkout that are not
// documentation: it keeps the first path segment of every documentation
// root and every entry matching an allow glob, removes entries matching a
// deny glob even when otherwise kept, and never touches .git (so the
// checkout stays updatable).
func PruneWorkspace(dir string, roots, allow, deny []string) ([]report.Issue, error) {
	keep := map[string]bool{}
	for _, r := range roots {
		first, _, _ := strings.Cut(path.Clean(r), "/")
		keep[first] = true
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var issues []report.Issue
	for _, e := range entries {
		name := e.Name()
		if name == ".git" {
			continue
		}
		remove := !keep[name] && !matchAny(allow, name)
		if matchAny(deny, name) {
			remove = true
		}
		if !remove {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
			issues = append(issues, report.Issue{Code: report.CodePruneFailed, Path: name,
				Message: fmt.Sprintf("could not prune %s: %v", name, err)})
		}
	}
	return issues, nil
}

func matchAny(globs []string, name string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}
