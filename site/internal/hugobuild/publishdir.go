package hugobuild

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ValidatePublishDir requires an absolute directory that is empty or absent
// and outside the project, so Hugo never mixes a new site with old files or
// reads its own output back as input.
func ValidatePublishDir(dir, projectDir string) error {
	if dir == "" || !filepath.IsAbs(dir) {
		return fmt.Errorf("site: PublishDir %q: expected an absolute directory path", dir)
	}
	dir = filepath.Clean(dir)
	if dir == projectDir || strings.HasPrefix(dir, filepath.Join(projectDir, "content")+string(filepath.Separator)) || dir == filepath.Join(projectDir, "content") {
		return fmt.Errorf("site: PublishDir %q: expected a directory outside the project's content", dir)
	}
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("site: PublishDir %q: %w", dir, err)
	case len(entries) > 0:
		return fmt.Errorf("site: PublishDir %q is not empty (%d entries); expected an empty or absent staging directory", dir, len(entries))
	}
	return nil
}
