package hugobuild

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// GeneratedDirName is the one directory of the project Render writes to.
// Everything in it except the cache is rewritten on each render.
const GeneratedDirName = ".docweave"

// Layout names the files and directories of a Hugo project that
// Render reads and writes.
type Layout struct {
	ProjectDir  string // the project root (Hugo's workingDir)
	ContentDir  string // <ProjectDir>/content: the repositories' documentation
	Generated   string // <ProjectDir>/.docweave
	ConfigFile  string // the Hugo configuration written for this render
	ThemesDir   string // Hugo's themesDir; the theme is installed below it
	SectionsDir string // generated directory pages, mounted beside content
	PagesDir    string // checked copies of pages that needed changes (see package pages)
	CacheDir    string // Hugo's file caches; kept between renders
	ResourceDir string // Hugo's processed resources (CSS); kept between renders
	PublishDir  string // where the site is written
}

func NewLayout(projectDir, publishDir string) Layout {
	gen := filepath.Join(projectDir, GeneratedDirName)
	return Layout{
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

// ResetGenerated removes what an earlier render generated (directory
// pages, page copies, configuration) so no stale file takes part in this
// one, and keeps the caches and the installed theme (InstallTheme checks
// that it is the theme of this render).
func (l Layout) ResetGenerated() error {
	for _, p := range []string{l.SectionsDir, l.PagesDir, l.ConfigFile} {
		if err := os.RemoveAll(p); err != nil {
			return fmt.Errorf("remove generated %s: %w", p, err)
		}
	}
	return nil
}

// themeMark names the file beside an installed theme that records which
// theme it is (the hash of its files).
const themeMark = ".installed"

// InstallTheme copies the theme tree themeFS to <ThemesDir>/<name>, unless
// the same theme is installed there already: a project rendered again (a
// render replica's work directory) copies the theme once.
func (l Layout) InstallTheme(themeFS fs.FS, name string) error {
	sum, err := FSHash(themeFS)
	if err != nil {
		return fmt.Errorf("install theme %s: %w", name, err)
	}
	mark := filepath.Join(l.ThemesDir, themeMark)
	if have, err := os.ReadFile(mark); err == nil && string(have) == sum {
		return nil
	}
	if err := os.RemoveAll(l.ThemesDir); err != nil {
		return fmt.Errorf("install theme %s: %w", name, err)
	}
	dst := filepath.Join(l.ThemesDir, name)
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return fmt.Errorf("install theme %s: %w", name, err)
	}
	if err := os.CopyFS(dst, themeFS); err != nil {
		return fmt.Errorf("install theme %s: %w", name, err)
	}
	if err := os.WriteFile(mark, []byte(sum), 0o644); err != nil {
		return fmt.Errorf("install theme %s: %w", name, err)
	}
	return nil
}

// FSHash is the hash of every file of fsys, with its path.
func FSHash(fsys fs.FS) (string, error) {
	var files []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return "", err
	}
	sort.Strings(files)
	h := sha256.New()
	for _, p := range files {
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return "", err
		}
		io.WriteString(h, p+"\x00")
		sum := sha256.Sum256(data)
		h.Write(sum[:])
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
