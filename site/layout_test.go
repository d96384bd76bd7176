package site

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

func TestProjectLayoutKeepsGeneratedFilesUnderOneDirectory(t *testing.T) {
	l := newProjectLayout("/p", "/out/public/")
	gen := filepath.Join("/p", generatedDirName)
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
	l := newProjectLayout(t.TempDir(), filepath.Join(t.TempDir(), "public"))
	writeFiles(t, l.Generated, map[string]string{
		"themes/docweave/old.html": "x",
		"sections/a/_index.md":     "x",
		"hugo.json":                "{}",
		"cache/entry":              "kept",
	})
	if err := l.resetGenerated(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{l.ThemesDir, l.SectionsDir, l.ConfigFile} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s survived the reset: %v", p, err)
		}
	}
	if _, err := os.Stat(filepath.Join(l.CacheDir, "entry")); err != nil {
		t.Errorf("cache removed: %v", err)
	}
}

func TestInstallThemeCopiesTheTree(t *testing.T) {
	l := newProjectLayout(t.TempDir(), filepath.Join(t.TempDir(), "public"))
	tree := fstest.MapFS{
		"layouts/all.html":  {Data: []byte("all")},
		"assets/css/x.css":  {Data: []byte("css")},
		"layouts/_partials": {Mode: fs.ModeDir},
	}
	if err := l.installTheme(tree, "t"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(l.ThemesDir, "t", "assets", "css", "x.css"))
	if err != nil || string(data) != "css" {
		t.Errorf("installed file = %q, %v", data, err)
	}
	// A second install over an existing tree fails loudly rather than
	// mixing versions; Render resets first.
	if err := l.installTheme(tree, "t"); err == nil {
		t.Error("installing over an existing theme succeeded")
	}
}
