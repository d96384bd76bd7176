package site

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/docweave/docweave/site/internal/hugobuild"
)

func TestProjectLayoutKeepsGeneratedFilesUnderOneDirectory(t *testing.T) {
	l := hugobuild.NewLayout("/p", "/out/public/")
	gen := filepath.Join("/p", hugobuild.GeneratedDirName)
	for name, p := range map[string]string{
		"ConfigFile": l.ConfigFile, "ThemesDir": l.ThemesDir, "SectionsDir": l.SectionsDir,
		"CacheDir": l.CacheDir, "ResourceDir": l.ResourceDir,
	} {
		if filepath.Dir(p) != gen {
			t.Errorf("%s = %s, want a child of %s", name, p, gen)
		}
	}
	if l.ContentDir != "/p/content" || l.PublishDir != "/out/public" {
		t.Errorf("layout = %+v", l)
	}
}

func TestResetGeneratedKeepsTheCache(t *testing.T) {
	l := hugobuild.NewLayout(t.TempDir(), filepath.Join(t.TempDir(), "public"))
	writeFiles(t, l.Generated, map[string]string{
		"themes/docweave/old.html": "x",
		"sections/a/_index.md":     "x",
		"hugo.json":                "{}",
		"cache/entry":              "kept",
	})
	if err := l.ResetGenerated(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{l.SectionsDir, l.ConfigFile} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s survived the reset: %v", p, err)
		}
	}
	// The caches stay, and so does the theme: hugobuild.InstallTheme checks it.
	for _, p := range []string{filepath.Join(l.CacheDir, "entry"), filepath.Join(l.ThemesDir, "docweave", "old.html")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s removed: %v", p, err)
		}
	}
}

func TestInstallThemeCopiesTheTree(t *testing.T) {
	l := hugobuild.NewLayout(t.TempDir(), filepath.Join(t.TempDir(), "public"))
	tree := fstest.MapFS{
		"layouts/all.html":  {Data: []byte("all")},
		"assets/css/x.css":  {Data: []byte("css")},
		"layouts/_partials": {Mode: fs.ModeDir},
	}
	if err := l.InstallTheme(tree, "t"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(l.ThemesDir, "t", "assets", "css", "x.css"))
	if err != nil || string(data) != "css" {
		t.Errorf("installed file = %q, %v", data, err)
	}
	// The same theme again: kept as it is (a render replica's work
	// directory installs the theme once).
	marker := filepath.Join(l.ThemesDir, "t", "layouts", "all.html")
	before, _ := os.Stat(marker)
	if err := l.InstallTheme(tree, "t"); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.Stat(marker); !os.SameFile(before, after) {
		t.Error("the same theme was copied again")
	}
	// Another theme replaces it whole: no file of the old one stays.
	other := fstest.MapFS{"layouts/other.html": {Data: []byte("other")}}
	if err := l.InstallTheme(other, "t"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file of the old theme stayed: %v", err)
	}
	if data, err := os.ReadFile(filepath.Join(l.ThemesDir, "t", "layouts", "other.html")); err != nil || string(data) != "other" {
		t.Errorf("the new theme is not installed: %q %v", data, err)
	}
}
