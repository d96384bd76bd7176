package site

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/site/theme"
)

// treeFiles reads every file below dir.
func treeFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBatchRendersEachUnitAsAlone renders the versioned fixture's units —
// three versions of gamma and delta — in one batch and each alone: every
// unit's files, facts, search entries, issues and page count are the same.
func TestBatchRendersEachUnitAsAlone(t *testing.T) {
	repos := versionedRepos()
	units := []string{"gamma/main", "gamma/v1.1.0", "gamma/v1.0.0", "delta"}
	layout := func(t *testing.T, list []string) string {
		project := filepath.Join(t.TempDir(), "project")
		for _, u := range list {
			if err := os.CopyFS(filepath.Join(project, "content", u), os.DirFS(filepath.Join("testdata", "versioned", "content", u))); err != nil {
				t.Fatal(err)
			}
		}
		return project
	}
	batch := batchOptions{ProjectDir: layout(t, units), Generator: fixtureGenerator(), Repositories: repos, Logger: zerolog.Nop()}
	for _, u := range units {
		batch.Units = append(batch.Units, batchUnit{Unit: u, PublishDir: filepath.Join(t.TempDir(), "public")})
	}
	together, err := renderBatch(context.Background(), batch, theme.FS())
	if err != nil {
		t.Fatal(err)
	}
	for i, u := range units {
		alone, err := RenderUnit(context.Background(), UnitOptions{ProjectDir: layout(t, []string{u}), PublishDir: filepath.Join(t.TempDir(), "public"),
			Generator: fixtureGenerator(), Repositories: repos, Unit: u, Logger: zerolog.Nop()})
		if err != nil {
			t.Fatal(err)
		}
		got := together[i]
		if got.Err != nil {
			t.Fatalf("%s in the batch: %v", u, got.Err)
		}
		if !bytes.Equal(got.Facts, alone.Facts) || !bytes.Equal(got.Search, alone.Search) {
			t.Errorf("%s: facts or search entries differ in the batch", u)
		}
		if got.Pages != alone.Pages || got.Files != alone.Files || fmt.Sprint(got.Issues) != fmt.Sprint(alone.Issues) {
			t.Errorf("%s: batch %d pages %d files %v; alone %d pages %d files %v", u, got.Pages, got.Files, got.Issues, alone.Pages, alone.Files, alone.Issues)
		}
	}
	// The files: compare each unit's publish directory with a render alone.
	for i, u := range units {
		dir := filepath.Join(t.TempDir(), "public")
		if _, err := RenderUnit(context.Background(), UnitOptions{ProjectDir: layout(t, []string{u}), PublishDir: dir,
			Generator: fixtureGenerator(), Repositories: repos, Unit: u, Logger: zerolog.Nop()}); err != nil {
			t.Fatal(err)
		}
		if a, b := treeFiles(t, batch.Units[i].PublishDir), treeFiles(t, dir); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: the files of the batch differ from the unit's alone", u)
		}
	}
}

// TestBatchFailsAUnitMostOfWhosePagesCannotRenderAlone: in a batch, a unit
// whose pages all fail fails by itself; the others are rendered.
func TestBatchFailsAUnitMostOfWhosePagesCannotRenderAlone(t *testing.T) {
	project := filepath.Join(t.TempDir(), "project")
	writeFiles(t, filepath.Join(project, "content"), map[string]string{
		"alpha/index.md": "# Alpha\n\nFine.\n",
		// Front matter Hugo refuses: the pages fail even as text.
		"beta/a.md": "---\nparams: 5\n---\n# A\n",
		"beta/b.md": "---\nparams: 6\n---\n# B\n",
	})
	repos := []Repository{{Name: "alpha", ContentPath: "alpha"}, {Name: "beta", ContentPath: "beta"}}
	res, err := renderBatch(context.Background(), batchOptions{ProjectDir: project, Generator: fixtureGenerator(), Repositories: repos, Logger: zerolog.Nop(),
		Units: []batchUnit{{Unit: "alpha", PublishDir: filepath.Join(t.TempDir(), "a")}, {Unit: "beta", PublishDir: filepath.Join(t.TempDir(), "b")}}}, theme.FS())
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Err != nil || res[0].Pages != 1 {
		t.Fatalf("alpha: %+v", res[0])
	}
	if res[1].Err == nil {
		t.Fatalf("beta rendered: %+v", res[1])
	}
}
