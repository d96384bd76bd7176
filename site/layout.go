package site

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// generatedDirName is the one directory of the project Render writes to.
// Everything in it except the cache is rewritten on each render.
const generatedDirName = ".docweave"

// projectLayout names the files and directories of a Hugo project that
// Render reads and writes.
type projectLayout struct {
	ProjectDir  string // the project root (Hugo's workingDir)
	ContentDir  string // <ProjectDir>/content: the repositories' documentation
	Generated   string // <ProjectDir>/.docweave
	ConfigFile  string // the Hugo configuration written for this render
	ThemesDir   string // Hugo's themesDir; the theme is installed below it
	SectionsDir string // generated directory pages, mounted beside content
	PagesDir    string // checked copies of pages that needed changes (see inspect.go)
	CacheDir    string // Hugo's file caches; kept between renders
	ResourceDir string // Hugo's processed resources (CSS); kept between renders
	PublishDir  string // where the site is written
}

func newProjectLayout(projectDir, publishDir string) projectLayout {
	gen := filepath.Join(projectDir, generatedDirName)
	return projectLayout{
		ProjectDir:  projectDir,
		ContentDir:  filepath.Join(projectDir, "content"),
		Generated:   gen,
		ConfigFile:  filepath.Join(gen, "hugo.json"),
		ThemesDir:   filepath.Join(gen, "themes"),
		SectionsDir: filepath.Join(gen, "sections"),
		PagesDir:    filepath.Join(gen, "pages"),
		CacheDir:    filepath.Join(gen, "cache"),
		ResourceDir: filepath.Join(gen, "resources"),
		PublishDir:  filepath.Clean(publishDir),
	}
}

// resetGenerated removes what an earlier render generated (theme,
// directory pages, page copies, configuration) so no stale file takes part
// in this one, and keeps the caches.
func (l projectLayout) resetGenerated() error {
	for _, p := range []string{l.ThemesDir, l.SectionsDir, l.PagesDir, l.ConfigFile} {
		if err := os.RemoveAll(p); err != nil {
			return fmt.Errorf("remove generated %s: %w", p, err)
		}
	}
	return nil
}

// installTheme copies the theme tree themeFS to <ThemesDir>/<name>.
func (l projectLayout) installTheme(themeFS fs.FS, name string) error {
	dst := filepath.Join(l.ThemesDir, name)
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return fmt.Errorf("install theme %s: %w", name, err)
	}
	if err := os.CopyFS(dst, themeFS); err != nil {
		return fmt.Errorf("install theme %s: %w", name, err)
	}
	return nil
}
