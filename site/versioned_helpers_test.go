package site

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"
)

// Commits of the versioned fixture's versions.
const (
	gammaMainCommit = "1111111111111111111111111111111111111111"
	gammaV110Commit = "2222222222222222222222222222222222222222"
	gammaV100Commit = "3333333333333333333333333333333333333333"
)

// versionedRepos are the repositories of testdata/versioned: gamma in three
// versions (main the default; guide/install.md in main and v1.1.0 but not
// v1.0.0; v1.0.0 without edit links) and delta, not versioned, beside it.
func versionedRepos() []Repository {
	return []Repository{
		{Name: "gamma", ContentPath: "gamma", Versions: []Version{
			{Name: "main", Slug: "main", Default: true, Commit: gammaMainCommit, EditURL: "https://forge.example.org/o/gamma/edit/main/docs/{path}"},
			{Name: "v1.1.0", Slug: "v1.1.0", Tag: true, Commit: gammaV110Commit, EditURL: "https://forge.example.org/o/gamma/edit/v1.1.0/docs/{path}"},
			{Name: "v1.0.0", Slug: "v1.0.0", Tag: true, Commit: gammaV100Commit},
		}},
		{Name: "delta", ContentPath: "delta", EditURL: "https://forge.example.org/o/delta/edit/main/docs/{path}"},
	}
}

// renderVersioned renders a fresh copy of testdata/versioned under the
// given base URL and returns the options used and the result.
func renderVersioned(t testing.TB, baseURL string) (Options, Result) {
	t.Helper()
	project := filepath.Join(t.TempDir(), "project")
	if err := os.CopyFS(project, os.DirFS("testdata/versioned")); err != nil {
		t.Fatalf("copy fixture: %v", err)
	}
	logs := &bytes.Buffer{}
	g := fixtureGenerator()
	g.BaseURL = baseURL
	opts := Options{
		ProjectDir:   project,
		PublishDir:   filepath.Join(t.TempDir(), "public"),
		Generator:    g,
		Repositories: versionedRepos(),
		Logger:       zerolog.New(logs).Level(zerolog.DebugLevel),
	}
	res, err := Render(context.Background(), opts)
	if err != nil {
		t.Fatalf("Render: %v\nlogs:\n%s", err, logs)
	}
	return opts, res
}
