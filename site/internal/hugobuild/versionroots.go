package hugobuild

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/docweave/docweave/site/internal/model"
)

// Multi-version documentation. A repository with Versions has one
// documentation tree per version under content/<ContentPath>/<Slug>/, and
// Render treats each version root the way it treats a non-versioned
// repository's root: the theme's menu, reading order, edit links and
// breadcrumbs work per version (site/theme: repository-of.html). On top
// of that:
//
//   - content/<ContentPath>/ itself gets a generated page with the
//     version-redirect layout, so /docs/<ContentPath>/ sends the reader to
//     the default version (meta refresh, canonical link, and a plain link);
//   - the Hugo configuration carries each repository's versions under
//     params.docweave.repositories[].versions (versionParams), for the
//     version switcher and for any tool reading the generated
//     configuration;
//   - the search index labels every page of a version with its name.

// VersionRedirectLayout is the theme layout (layouts/version-redirect.html)
// of a versioned repository's root page.
const VersionRedirectLayout = "version-redirect"

// versionedRoots maps the content path of each versioned repository to
// the repository.
func versionedRoots(repos []model.Repository) map[string]model.Repository {
	roots := map[string]model.Repository{}
	for _, r := range repos {
		if len(r.Versions) > 0 {
			roots[r.ContentPath] = r
		}
	}
	return roots
}

// WriteVersionRedirects writes the root page of each versioned repository
// below sectionsDir: <dir>/_index.md with JSON front matter holding the
// repository name as title and the version-redirect layout, which sends
// the reader on to the default version.
func WriteVersionRedirects(sectionsDir string, redirects map[string]string) error {
	for _, dir := range slices.Sorted(maps.Keys(redirects)) {
		front, err := json.Marshal(map[string]any{"title": redirects[dir], "layout": VersionRedirectLayout})
		if err != nil {
			return fmt.Errorf("write version redirect for %s: %w", dir, err)
		}
		target := filepath.Join(sectionsDir, filepath.FromSlash(dir), "_index.md")
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return fmt.Errorf("write version redirect for %s: %w", dir, err)
		}
		if err := os.WriteFile(target, append(front, '\n'), 0o644); err != nil {
			return fmt.Errorf("write version redirect for %s: %w", dir, err)
		}
	}
	return nil
}
