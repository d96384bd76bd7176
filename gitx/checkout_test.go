package gitx

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docweave/docweave/internal/gittest"
)

// craftedRepo has a tree with every kind of name go-git refuses to check
// out (and that failed the whole repository with "directory not found"),
// beside files that are fine.
func craftedRepo(t *testing.T) *gittest.Repo {
	r := gittest.NewRepo(t, map[string]string{"README.md": "readme"})
	r.CommitRaw(t, []gittest.RawEntry{
		{Path: "README.md", Content: "readme"},
		{Path: "docs/good.md", Content: "# Good"},
		{Path: "docs/sub/also-good.md", Content: "# Also good"},
		{Path: "docs/.GIT/config", Content: "[core]\n\tfsmonitor = evil\n"},
		{Path: "docs/../escape.md", Content: "escaped"},
		{Path: "docs/bad\x01name.md", Content: "control"},
		{Path: "docs/git~1/HEAD", Content: "ref"},
		{Path: "docs/.git. /x", Content: "ntfs"},
		{Path: "docs/back\\slash.md", Content: "backslash"},
	}, "crafted names")
	return r
}

func TestFreshCloneSkipsUnsafeNamesOneByOne(t *testing.T) {
	r := craftedRepo(t)
	dir := workdir(t)
	res := mustAcquire(t, Request{URL: r.FileURL(), Dir: dir, Depth: 1})
	if res.Commit != r.Head(t) {
		t.Fatalf("commit %s, want %s", res.Commit, r.Head(t))
	}
	for _, good := range []string{"README.md", "docs/good.md", "docs/sub/also-good.md"} {
		if !exists(filepath.Join(dir, good)) {
			t.Errorf("%s was not checked out", good)
		}
	}
	var skipped []string
	for _, s := range res.Skipped {
		skipped = append(skipped, s.Path)
		if s.Reason == "" {
			t.Errorf("%s skipped without a reason", s.Path)
		}
	}
	slices.Sort(skipped)
	want := []string{"docs/..", "docs/.GIT", "docs/.git. ", "docs/back\\slash.md", "docs/bad\x01name.md", "docs/git~1"}
	if !slices.Equal(skipped, want) {
		t.Fatalf("skipped %q, want %q", skipped, want)
	}
	if exists(filepath.Join(filepath.Dir(dir), "escape.md")) || exists(filepath.Join(dir, "docs", ".GIT")) {
		t.Fatal("an unsafe entry reached the disk")
	}
	// The checkout is a workspace the git command line accepts as clean.
	if out := gittest.Git(t, dir, "status", "--porcelain", "--", "README.md", "docs/good.md", "docs/sub"); out != "" {
		t.Fatalf("git status of the checked-out files is not clean:\n%s", out)
	}
}

// A malformed tree may hold a symbolic link and a directory of the same
// name; writing the directory's file through the link would escape the
// checkout. Files are written before links, with O_EXCL, so the link
// loses.
func TestLinkAndDirectoryOfTheSameNameCannotEscape(t *testing.T) {
	outside := t.TempDir()
	r := gittest.NewRepo(t, map[string]string{"a.md": "a"})
	r.CommitRaw(t, []gittest.RawEntry{
		{Path: "docs/link", Content: outside, Link: true},
		{Path: "docs/link/pwned.md", Content: "pwned"},
		{Path: "docs/dup.md", Content: "first"},
		{Path: "docs/dup.md", Content: "second"},
	}, "duplicates")
	dir := workdir(t)
	res := mustAcquire(t, Request{URL: r.FileURL(), Dir: dir})
	if exists(filepath.Join(outside, "pwned.md")) {
		t.Fatal("a file was written through a symbolic link out of the checkout")
	}
	info, err := os.Lstat(filepath.Join(dir, "docs/link"))
	if err != nil || !info.IsDir() {
		t.Fatalf("docs/link = %v, %v; want the directory (the link skipped)", info, err)
	}
	var collided []string
	for _, s := range res.Skipped {
		if strings.Contains(s.Reason, "same name") {
			collided = append(collided, s.Path)
		}
	}
	slices.Sort(collided)
	if !slices.Equal(collided, []string{"docs/dup.md", "docs/link"}) {
		t.Fatalf("collisions reported: %q, want docs/dup.md and docs/link", collided)
	}
}

func TestUpdateToAnUnsafeTreeClonesAfresh(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"docs/a.md": "a"})
	dir := workdir(t)
	first := mustAcquire(t, Request{URL: r.FileURL(), Dir: dir, Strategy: StrategyUpdate})
	r.CommitRaw(t, []gittest.RawEntry{
		{Path: "docs/a.md", Content: "a2"},
		{Path: "docs/.GIT/config", Content: "x"},
	}, "unsafe")
	res := mustAcquire(t, Request{URL: r.FileURL(), Dir: dir, Strategy: StrategyUpdate})
	if res.Commit == first.Commit || !res.Updated {
		t.Fatalf("update result %+v; want the new commit, updated", res)
	}
	if got := readFile(t, filepath.Join(dir, "docs/a.md")); got != "a2" {
		t.Fatalf("docs/a.md = %q", got)
	}
	if len(res.Skipped) != 1 || res.Skipped[0].Path != "docs/.GIT" {
		t.Fatalf("skipped %+v", res.Skipped)
	}
	// And back to a safe tree, through go-git's own update path.
	r.Commit(t, map[string]string{"docs/a.md": "a3"}, "safe again")
	res = mustAcquire(t, Request{URL: r.FileURL(), Dir: dir, Strategy: StrategyUpdate})
	if got := readFile(t, filepath.Join(dir, "docs/a.md")); got != "a3" || res.Commit != r.Head(t) {
		t.Fatalf("docs/a.md = %q at %s", got, res.Commit)
	}
}
