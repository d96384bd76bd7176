package gitx

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// cleanUntracked removes what `git clean -fd` would: files and directories
// of dir that tracked does not list and that no .gitignore (or
// .git/info/exclude) pattern ignores. Ignored files and the directories
// holding them stay; .git is never entered; links are removed, never
// followed.
func cleanUntracked(dir string, tracked map[string]bool) error {
	patterns, err := gitignore.ReadPatterns(osfs.New(dir), nil)
	if err != nil {
		return fmt.Errorf("read ignore patterns: %w", err)
	}
	c := untrackedCleaner{root: dir, tracked: tracked, ignored: gitignore.NewMatcher(patterns)}
	_, err = c.clean(nil)
	return err
}

type untrackedCleaner struct {
	root    string
	tracked map[string]bool
	ignored gitignore.Matcher
}

// clean cleans the directory at comps and reports whether it is now empty.
func (c untrackedCleaner) clean(comps []string) (bool, error) {
	full := filepath.Join(append([]string{c.root}, comps...)...)
	entries, err := os.ReadDir(full)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", full, err)
	}
	left := 0
	for _, e := range entries {
		if len(comps) == 0 && e.Name() == ".git" {
			left++
			continue
		}
		p := append(append([]string(nil), comps...), e.Name())
		rel := filepath.ToSlash(filepath.Join(p...))
		if e.IsDir() {
			if c.ignored.Match(p, true) {
				left++
				continue
			}
			empty, err := c.clean(p)
			if err != nil {
				return false, err
			}
			if !empty {
				left++
				continue
			}
			if err := os.Remove(filepath.Join(full, e.Name())); err != nil {
				return false, fmt.Errorf("remove untracked directory %s: %w", rel, err)
			}
			continue
		}
		if c.tracked[rel] || c.ignored.Match(p, false) {
			left++
			continue
		}
		if err := os.Remove(filepath.Join(full, e.Name())); err != nil {
			return false, fmt.Errorf("remove untracked %s: %w", rel, err)
		}
	}
	return left == 0, nil
}
