package preview

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// linkTree places every file below src at the same path below dst, by
// hard link (a copy where links fail, as across file systems): the
// assembly never writes into a placed file, it replaces it.
func linkTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case !d.Type().IsRegular():
			return nil // a render writes regular files only
		}
		if err := os.Link(p, target); err == nil {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("place %s: %w", rel, err)
		}
		return os.WriteFile(target, data, 0o644)
	})
}
