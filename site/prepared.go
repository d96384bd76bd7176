package site

import (
	"io/fs"

	"github.com/docweave/docweave/site/internal/hugobuild"
	"github.com/docweave/docweave/site/internal/pages"
	"github.com/docweave/docweave/site/theme"
)

// preparedContent is the content of one render, checked once and shared by
// its build attempts.
type preparedContent struct {
	tree pages.Tree
	*pages.Prepared
}

// prepareContent installs the theme, lists the content and prepares every
// Markdown file (package pages), writing the copies of the pages that
// needed changes.
func prepareContent(l hugobuild.Layout, themeFS fs.FS, repos []Repository, baseURL string) (*preparedContent, error) {
	if err := l.ResetGenerated(); err != nil {
		return nil, err
	}
	if err := l.InstallTheme(themeFS, theme.Name); err != nil {
		return nil, err
	}
	tree, err := hugobuild.WalkContent(l.ContentDir)
	if err != nil {
		return nil, err
	}
	prepared, err := pages.Prepare(l.ContentDir, l.PagesDir, tree, repos, hugobuild.SitePath(baseURL), themeFS)
	if err != nil {
		return nil, err
	}
	return &preparedContent{tree: tree, Prepared: prepared}, nil
}
