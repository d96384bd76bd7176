package site

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site/internal/hugobuild"
)

// The assembly gives its stand-ins to Hugo from memory: none is written to
// its work directory, and the term pages still list the pages of every unit.
func TestAssemblyWritesNoStandInsToDisk(t *testing.T) {
	root := t.TempDir()
	repos := []Repository{{Name: "alpha", ContentPath: "alpha"}, {Name: "beta", ContentPath: "beta"}}
	project := filepath.Join(root, "project")
	for _, r := range repos {
		file := filepath.Join(project, "content", r.ContentPath, "guide.md")
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		page := "---\ntitle: Guide of " + r.Name + "\ntags: [shared]\n---\n\nText.\n"
		if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	public := filepath.Join(root, "public")
	if _, err := Render(context.Background(), Options{ProjectDir: project, PublishDir: public,
		Generator: config.Generator{Title: "T"}, Repositories: repos, Logger: zerolog.Nop()}); err != nil {
		t.Fatal(err)
	}
	term, err := os.ReadFile(filepath.Join(public, "tags", "shared", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`href="/docs/alpha/guide/"`, `href="/docs/beta/guide/"`} {
		if !strings.Contains(string(term), want) {
			t.Errorf("term page lacks %s", want)
		}
	}
	// Render's work directory is gone after it; render an assembly into a
	// work directory that stays, and look into it.
	work := filepath.Join(root, "assembly")
	facts := []byte(`{"unit":"alpha","regularPages":1,"pages":[{"path":"","url":"/docs/alpha/","kind":"section","title":"alpha"},` +
		`{"path":"guide","url":"/docs/alpha/guide/","kind":"page","title":"Guide","rawTitle":"Guide","file":"docs/alpha/guide.md","terms":{"tags":["shared"]}}]}`)
	if _, err := Assemble(context.Background(), AssembleOptions{WorkDir: work, PublishDir: filepath.Join(root, "public2"),
		Generator: config.Generator{Title: "T"}, Repositories: repos[:1], Logger: zerolog.Nop(),
		Units: []AssembledUnit{{Path: "alpha", Facts: facts, Place: func(context.Context, string) error { return nil }}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(work, hugobuild.GeneratedDirName, "stubs")); !os.IsNotExist(err) {
		t.Errorf("stand-ins on disk (%v); want them in memory only", err)
	}
	term, err = os.ReadFile(filepath.Join(root, "public2", "tags", "shared", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(term), `href="/docs/alpha/guide/"`) {
		t.Errorf("term page of the assembly lacks the stand-in's page:\n%s", term)
	}
}
