package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// CheckoutName is the name of a unit's checkout: the repository's name, or
// "<repository>@<version slug>" for one version of it, so each version
// keeps a working tree of its own.
func CheckoutName(repo, versionSlug string) string {
	if versionSlug == "" {
		return repo
	}
	return repo + "@" + versionSlug
}

// PruneCache removes the cached checkouts (clone_strategy update or auto)
// whose names are not in keep and that were not touched for minAge, and
// returns how many it removed. With versioning, branches and tags come and
// go; without this their checkouts would stay on disk forever. The age
// guard spares a checkout a build in flight is using.
func (l Layout) PruneCache(keep map[string]bool, minAge time.Duration) (int, error) {
	entries, err := os.ReadDir(l.RepoCache)
	if os.IsNotExist(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("prune checkouts in %s: %w", l.RepoCache, err)
	}
	removed := 0
	for _, e := range entries {
		if !e.IsDir() || keep[e.Name()] {
			continue
		}
		info, err := e.Info()
		if err != nil || time.Since(info.ModTime()) < minAge {
			continue
		}
		if err := os.RemoveAll(filepath.Join(l.RepoCache, e.Name())); err != nil {
			return removed, fmt.Errorf("prune checkout %s: %w", e.Name(), err)
		}
		removed++
	}
	return removed, nil
}
