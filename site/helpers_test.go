package site

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
)

// fixtureRepos are the repositories of testdata/project.
var fixtureRepos = []Repository{
	{Name: "alpha", ContentPath: "alpha", EditURL: "https://forge.example.org/docs/alpha/edit/main/docs/{path}"},
	{Name: "beta", ContentPath: "beta"},
}

// newFixtureProject copies testdata/project into a temporary directory, so
// each test renders its own project.
func newFixtureProject(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "project")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(dir, os.DirFS("testdata/project")); err != nil {
		t.Fatalf("copy fixture: %v", err)
	}
	return dir
}

// fixtureOptions returns options rendering project into a fresh publish
// directory, logging into logs.
func fixtureOptions(t testing.TB, project string, logs *bytes.Buffer) Options {
	t.Helper()
	return Options{
		ProjectDir:   project,
		PublishDir:   filepath.Join(t.TempDir(), "public"),
		Generator:    fixtureGenerator(),
		Repositories: fixtureRepos,
		Logger:       zerolog.New(logs).Level(zerolog.DebugLevel),
	}
}

func fixtureGenerator() (g config.Generator) {
	g.Title = "Fixture Docs"
	g.Description = "Two repositories, rendered for tests."
	g.Taxonomies = map[string]string{"tag": "tags", "category": "categories", "team": "teams"}
	return g
}

// renderFixture renders a fresh copy of the fixture project and returns the
// options used and the result.
func renderFixture(t testing.TB) (Options, Result, *bytes.Buffer) {
	t.Helper()
	logs := &bytes.Buffer{}
	opts := fixtureOptions(t, newFixtureProject(t), logs)
	res, err := Render(context.Background(), opts)
	if err != nil {
		t.Fatalf("Render: %v\nlogs:\n%s", err, logs)
	}
	return opts, res, logs
}

// readPublished returns the content of a published file.
func readPublished(t testing.TB, publishDir, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(publishDir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatalf("published file %s: %v", rel, err)
	}
	return string(data)
}

// between returns the part of s from the first start to the following end,
// or "" when either is missing.
func between(s, start, end string) string {
	i := strings.Index(s, start)
	if i < 0 {
		return ""
	}
	j := strings.Index(s[i:], end)
	if j < 0 {
		return ""
	}
	return s[i : i+j+len(end)]
}

// publishedTree maps each file below dir (slash path) to its content.
func publishedTree(t testing.TB, dir string) map[string]string {
	t.Helper()
	tree := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		tree[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// renderOneRepository renders the unit of one repository, named and laid
// out as unit under content/, from files (paths relative to the project,
// "content/<unit>/…"), with its documentation roots (repository paths)
// when given, and returns the result and the published files.
func renderOneRepository(t *testing.T, unit string, files map[string]string, docRoots ...string) (UnitResult, map[string]string) {
	t.Helper()
	project := filepath.Join(t.TempDir(), "project")
	writeFiles(t, project, files)
	publish := filepath.Join(t.TempDir(), "public")
	res, err := RenderUnit(context.Background(), UnitOptions{ProjectDir: project, PublishDir: publish,
		Generator: fixtureGenerator(), Unit: unit, Logger: zerolog.Nop(),
		Repositories: []Repository{{Name: unit, ContentPath: unit, DocRoots: docRoots}}})
	if err != nil {
		t.Fatal(err)
	}
	return res, publishedTree(t, publish)
}
