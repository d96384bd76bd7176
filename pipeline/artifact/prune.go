package artifact

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Prune removes stored trees that are not in keep and were last used
// (stored, looked up or read) more than minAge ago, so a long-running
// daemon's store does not grow without end. minAge protects trees of builds
// still in flight: a build marks every tree it uses. It returns how many
// trees it removed.
func (l *Local) Prune(keep map[Ref]bool, minAge time.Duration) (int, error) {
	entries, err := os.ReadDir(filepath.Join(l.root, "trees"))
	if err != nil {
		return 0, fmt.Errorf("prune artifact store: %w", err)
	}
	keepHex := make(map[string]bool, len(keep))
	for ref := range keep {
		if h, err := ref.Hex(); err == nil {
			keepHex[h] = true
		}
	}
	removed := 0
	for _, e := range entries {
		if keepHex[e.Name()] {
			continue
		}
		info, err := e.Info()
		if err != nil || time.Since(info.ModTime()) < minAge {
			continue
		}
		if err := os.RemoveAll(filepath.Join(l.root, "trees", e.Name())); err != nil {
			return removed, fmt.Errorf("prune artifact store: %w", err)
		}
		removed++
	}
	return removed, nil
}
