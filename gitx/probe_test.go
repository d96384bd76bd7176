package gitx

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/docweave/docweave/internal/gittest"
)

// The probe over file:// and over smart HTTP (with blob filters, as
// forges serve) answers the same: refs, the ref's commit, and for a path
// that is not there the folders that are.
func TestProbePathsListsRefsAndChecksPaths(t *testing.T) {
	repo := gittest.NewRepo(t, map[string]string{
		"docs/guide/start.md": "# Start\n", "docs/index.md": "# Home\n", "website/blog/a.md": "# A\n", "README.md": "# R\n",
	})
	repo.Tag(t, "v1.0", true)
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{})
	httpURL := srv.Add(t, "org/handbook", repo)
	repo.Git(t, "config", "uploadpack.allowFilter", "true")
	for name, url := range map[string]string{"file": repo.FileURL(), "http": httpURL} {
		t.Run(name, func(t *testing.T) {
			p, err := ProbePaths(context.Background(), Request{URL: url}, []string{"docs", "docs/guide/", "doc", "docs/guid", "README.md", "."})
			if err != nil {
				t.Fatal(err)
			}
			if p.Commit != repo.Head(t) || p.Ref != p.DefaultBranch || len(p.Refs) != 2 || !p.Refs[1].Tag || p.Refs[1].Name != "v1.0" {
				t.Fatalf("probe %+v", p)
			}
			want := []PathCheck{
				{Path: "docs", Found: true, Parent: "."},
				{Path: "docs/guide/", Found: true, Parent: "."},
				{Path: "doc", Parent: ".", Folders: []string{"docs", "website"}},
				{Path: "docs/guid", Parent: "docs", Folders: []string{"guide"}},
				{Path: "README.md", NotFolder: true, Parent: ".", Folders: []string{"docs", "website"}},
				{Path: ".", Found: true, Parent: "."},
			}
			if !reflect.DeepEqual(p.Paths, want) {
				t.Fatalf("paths\n got %+v\nwant %+v", p.Paths, want)
			}
		})
	}
	t.Run("tag", func(t *testing.T) {
		p, err := ProbePaths(context.Background(), Request{URL: repo.FileURL(), Branch: "v1.0"}, []string{"website/blog"})
		if err != nil || p.Ref != "v1.0" || !p.Paths[0].Found {
			t.Fatalf("%+v %v", p, err)
		}
	})
	t.Run("missing branch", func(t *testing.T) {
		_, err := ProbePaths(context.Background(), Request{URL: repo.FileURL(), Branch: "nope"}, []string{"docs"})
		var gerr *Error
		if !errors.As(err, &gerr) || gerr.Code != CodeBranchNotFound {
			t.Fatalf("%v", err)
		}
	})
	t.Run("missing repository", func(t *testing.T) {
		for _, url := range []string{srv.URL() + "/org/ghost.git", "file://" + t.TempDir() + "/ghost.git"} {
			_, err := ProbePaths(context.Background(), Request{URL: url}, []string{"docs"})
			var gerr *Error
			if !errors.As(err, &gerr) || gerr.Code != CodeNotFound {
				t.Fatalf("%s: %v", url, err)
			}
		}
	})
}
