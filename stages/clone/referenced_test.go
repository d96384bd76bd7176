package clone

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/workspace"
)

// referencedRepo is a repository whose pages under docs/ show images in
// a hidden folder of the root, in a folder outside it, one over the file
// size limit and one above the repository's root.
func referencedRepo(t *testing.T) *gittest.Repo {
	return gittest.NewRepo(t, map[string]string{
		"docs/guide/tour.md": "# Tour\n\n![harbour](../.gitbook/assets/harbour.png)\n\n![lighthouse](../../artwork/lighthouse.png)\n\n" +
			"![a poster](../../artwork/poster.png)\n\n![the sea](../../../sea.png)\n\n" +
			"![a boat as the site shows it](/pictures/boat.png)\n\n![one of two icons](/icons/anchor.png)\n",
		"web/static/pictures/boat.png":     "png",
		"web/static/icons/anchor.png":      "png",
		"old/icons/anchor.png":             "png",
		"docs/.gitbook/assets/harbour.png": "png",
		"artwork/lighthouse.png":           "png",
		"artwork/poster.png":               strings.Repeat("p", 4096),
		"artwork/unused.png":               "png",
		"src/main.go":                      "package main",
	})
}

// Issue 27: the images a page shows from outside the documentation root
// (sparse checkouts never fetched them) and from a hidden folder (never
// published) are in the tree under _files/, fetched by a second checkout
// of exactly those files from the same commit — over a partial clone, and
// over file:// where the whole commit is fetched. A file over the size
// limit is refused by its size and reported.
func TestCloneCollectsTheFilesPagesReference(t *testing.T) {
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{})
	partial := referencedRepo(t)
	partial.Git(t, "config", "uploadpack.allowFilter", "true")
	for name, url := range map[string]string{"partial": srv.Add(t, "docs", partial), "file": referencedRepo(t).FileURL()} {
		t.Run(name, func(t *testing.T) {
			st, cfg, store := newStageStore(t, config.Repository{Name: "docs", URL: url, Paths: []string{"docs"}})
			cfg.Build.Limits.MaxFileBytes = 1024
			out, err := st.Handle(context.Background(), job("docs"))
			if err != nil {
				t.Fatal(err)
			}
			got := out[0].(*events.RepoCloned)
			if got.Failure != nil {
				t.Fatalf("failed: %+v", got.Failure)
			}
			// /pictures/boat.png is the one file ending so; /icons/anchor.png
			// could be either of two: the one in a static/ folder (where
			// Docusaurus and Hugo keep what they publish at the site's root)
			// is taken.
			want := []string{".gitbook/assets/harbour.png", "_files/artwork/lighthouse.png", "_files/docs/_.gitbook/assets/harbour.png",
				"_files/web/static/icons/anchor.png", "_files/web/static/pictures/boat.png", "guide/tour.md"}
			if files := treeFiles(t, store, got.Tree); !slices.Equal(files, want) {
				t.Fatalf("tree %v, want %v", files, want)
			}
			if codes := issueCodes(got.Issues); !slices.Equal(codes[report.CodeFileTooLarge], []string{"artwork/poster.png"}) {
				t.Fatalf("issues %+v, want FILE_TOO_LARGE for artwork/poster.png", got.Issues)
			}
		})
	}
}

// A cached checkout (clone_strategy update) keeps its referenced files
// tracked: the next build has them again, and one no page references any
// more leaves the checkout and the tree.
func TestCloneUpdateKeepsReferencedFilesCurrent(t *testing.T) {
	repo := referencedRepo(t)
	st, cfg, store := newStageStore(t, config.Repository{Name: "docs", URL: repo.FileURL(), Paths: []string{"docs"}})
	cfg.Build.CloneStrategy = "update"
	cfg.Build.Limits.MaxFileBytes = 1024
	tree := func() []string {
		t.Helper()
		out, err := st.Handle(context.Background(), job("docs"))
		if err != nil {
			t.Fatal(err)
		}
		got := out[0].(*events.RepoCloned)
		if got.Failure != nil {
			t.Fatalf("failed: %+v", got.Failure)
		}
		return treeFiles(t, store, got.Tree)
	}
	first := tree()
	if again := tree(); !slices.Equal(first, again) || !slices.Contains(again, "_files/artwork/lighthouse.png") {
		t.Fatalf("second build's tree %v, first %v", again, first)
	}
	repo.Commit(t, map[string]string{"docs/guide/tour.md": "# Tour\n\n![harbour](../.gitbook/assets/harbour.png)\n"}, "fewer pictures")
	want := []string{".gitbook/assets/harbour.png", "_files/docs/_.gitbook/assets/harbour.png", "guide/tour.md"}
	if got := tree(); !slices.Equal(got, want) {
		t.Fatalf("after the page changed: tree %v, want %v", got, want)
	}
	dir, err := workspace.For(cfg).Dir(workspace.CacheKey(workspace.CheckoutName("docs", "")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "artwork", "lighthouse.png")); !os.IsNotExist(err) {
		t.Fatalf("a file no page references any more stayed in the checkout: %v", err)
	}
}

// A referenced path through a symbolic link of the repository — to a
// folder outside it, or to its .git — is never checked out or published;
// neither is a reference into .git itself.
func TestCloneFollowsNoLinkToAReferencedFile(t *testing.T) {
	repo := gittest.NewRepo(t, map[string]string{"README.md": "r"})
	repo.CommitRaw(t, []gittest.RawEntry{
		{Path: "docs/index.md", Content: "# Home\n\n![a](../outside/passwd) ![b](../gitdir/config) ![c](../.git/config) ![d](../shots/d.png)\n"},
		{Path: "outside", Content: "/etc", Link: true},
		{Path: "gitdir", Content: ".git", Link: true},
		{Path: "shots/d.png", Content: "png"},
	}, "links")
	st, _, store := newStageStore(t, config.Repository{Name: "docs", URL: repo.FileURL(), Paths: []string{"docs"}})
	out, err := st.Handle(context.Background(), job("docs"))
	if err != nil {
		t.Fatal(err)
	}
	got := out[0].(*events.RepoCloned)
	if files := treeFiles(t, store, got.Tree); !slices.Equal(files, []string{"_files/shots/d.png", "index.md"}) {
		t.Fatalf("tree %v, want only the page and shots/d.png", files)
	}
}
