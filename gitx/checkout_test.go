package gitx

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/storage/memory"

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

// go-git's hard reset refused a tree with names it cannot write, so an
// update to one had to clone afresh; docweave's own writer updates in
// place and leaves those entries out, as a fresh clone does.
func TestUpdateToAnUnsafeTreeLeavesOutItsUnsafeEntriesInPlace(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"docs/a.md": "a"})
	dir := workdir(t)
	first := mustAcquire(t, Request{URL: r.FileURL(), Dir: dir, Strategy: StrategyUpdate})
	// An untracked file survives an update (CleanUntracked is off), and
	// would not survive a fresh clone.
	if err := os.WriteFile(filepath.Join(dir, "docs", "untracked.md"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.CommitRaw(t, []gittest.RawEntry{
		{Path: "docs/a.md", Content: "a2"},
		{Path: "docs/.GIT/config", Content: "x"},
	}, "unsafe")
	res := mustAcquire(t, Request{URL: r.FileURL(), Dir: dir, Strategy: StrategyUpdate})
	if res.Commit == first.Commit || !res.Updated || res.FellBackToFresh {
		t.Fatalf("update result %+v; want the new commit, updated in place", res)
	}
	if got := readFile(t, filepath.Join(dir, "docs/a.md")); got != "a2" {
		t.Fatalf("docs/a.md = %q", got)
	}
	if got := readFile(t, filepath.Join(dir, "docs/untracked.md")); got != "mine" {
		t.Fatalf("the untracked file reads %q: the workspace was replaced, not updated", got)
	}
	if len(res.Skipped) != 1 || res.Skipped[0].Path != "docs/.GIT" {
		t.Fatalf("skipped %+v", res.Skipped)
	}
	if exists(filepath.Join(dir, "docs", ".GIT")) {
		t.Fatal("the unsafe entry reached the disk")
	}
	if out := gittest.Git(t, dir, "status", "--porcelain", "--", "docs/a.md"); out != "" {
		t.Fatalf("git status of the updated file is not clean:\n%s", out)
	}
	// And back to a safe tree.
	r.Commit(t, map[string]string{"docs/a.md": "a3"}, "safe again")
	res = mustAcquire(t, Request{URL: r.FileURL(), Dir: dir, Strategy: StrategyUpdate})
	if got := readFile(t, filepath.Join(dir, "docs/a.md")); got != "a3" || res.Commit != r.Head(t) {
		t.Fatalf("docs/a.md = %q at %s", got, res.Commit)
	}
}

// blobEntry stores content as a blob in st and returns its tree entry.
func blobEntry(t *testing.T, st *memory.Storage, path string, mode filemode.FileMode, content string) treeEntry {
	t.Helper()
	obj := st.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	w, err := obj.Writer()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
	w.Close()
	h, err := st.SetEncodedObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	return treeEntry{path: path, mode: mode, hash: h}
}

// The writer's own guarantees, below the selection (which already drops
// duplicates and links named like directories): on a fresh checkout a
// path that is taken — as a case-insensitive file system sees two
// spellings of one name — is left out, never replaced; files are all
// written before a link, so a link can neither redirect a file nor take
// a directory's place; a link no file system accepts is left out.
func TestFreshCheckoutReplacesNothingAndWritesLinksLast(t *testing.T) {
	outside := t.TempDir()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "docs", "taken.md"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	st := memory.NewStorage()
	files := []treeEntry{
		blobEntry(t, st, "docs/a.md", filemode.Regular, "# A"),
		// Sorted before the file under it: written first, it would send
		// docs/l/pwned.md to outside.
		blobEntry(t, st, "docs/l", filemode.Symlink, outside),
		blobEntry(t, st, "docs/l/pwned.md", filemode.Regular, "pwned"),
		blobEntry(t, st, "docs/long", filemode.Symlink, strings.Repeat("x/", 2100)),
		blobEntry(t, st, "docs/nul", filemode.Symlink, "a\x00b"),
		blobEntry(t, st, "docs/taken.md", filemode.Regular, "theirs"),
	}
	idx, stats, err := materialize(dir, st, files, nil, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Fatalf("a file was written through a link: %v", entries)
	}
	if got := readFile(t, filepath.Join(dir, "docs", "taken.md")); got != "mine" {
		t.Fatalf("docs/taken.md = %q; a fresh checkout replaced what was there", got)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "docs", "l")); err != nil || !fi.IsDir() {
		t.Fatalf("docs/l = %v, %v; want the directory", fi, err)
	}
	var names []string
	for _, e := range idx.Entries {
		names = append(names, e.Name)
	}
	if want := []string{"docs/a.md", "docs/l/pwned.md"}; !slices.Equal(names, want) || stats.Files != 2 || stats.Written != 2 {
		t.Fatalf("index %q, stats %+v; want %q written", names, stats, want)
	}
	reasons := map[string]string{}
	for _, s := range stats.Skipped {
		reasons[s.Path] = s.Reason
	}
	if len(reasons) != 4 || !strings.Contains(reasons["docs/l"], "same name") || !strings.Contains(reasons["docs/taken.md"], "same name") ||
		!strings.Contains(reasons["docs/long"], "4095") || !strings.Contains(reasons["docs/nul"], "NUL") {
		t.Fatalf("skipped %+v", stats.Skipped)
	}
}

func TestOverlongNamesAndDeepTrees(t *testing.T) {
	long := strings.Repeat("n", 256) + ".md"
	r := gittest.NewRepo(t, map[string]string{"docs/a.md": "a"})
	r.CommitRaw(t, []gittest.RawEntry{
		{Path: "docs/a.md", Content: "a"},
		{Path: "docs/" + long, Content: "too long a name"},
		{Path: "docs/" + strings.Repeat("n", 255), Content: "the longest name"},
	}, "long names")
	dir := workdir(t)
	res := mustAcquire(t, Request{URL: r.FileURL(), Dir: dir})
	if len(res.Skipped) != 1 || res.Skipped[0].Path != "docs/"+long || !strings.Contains(res.Skipped[0].Reason, "255") {
		t.Fatalf("skipped %+v, want the 259-byte name only", res.Skipped)
	}
	if !exists(filepath.Join(dir, "docs", strings.Repeat("n", 255))) || res.Files != 2 {
		t.Fatalf("%+v: the 255-byte name was not checked out", res)
	}

	// docs is level 1, so the 256th d is level 257: left out with what
	// it holds, and the rest of the repository checked out.
	deep := strings.Repeat("d/", maxTreeDepth-1)
	r.CommitRaw(t, []gittest.RawEntry{
		{Path: "docs/a.md", Content: "a"},
		{Path: "docs/" + deep + "ok.md", Content: "at level 256"},
		{Path: "docs/" + deep + "d/x.md", Content: "x"},
	}, "deep")
	dir = workdir(t)
	res = mustAcquire(t, Request{URL: r.FileURL(), Dir: dir})
	want := "docs/" + deep + "d"
	if len(res.Skipped) != 1 || res.Skipped[0].Path != want || !strings.Contains(res.Skipped[0].Reason, "deeper than 256") {
		t.Fatalf("skipped %+v, want %s", res.Skipped, want)
	}
	if !exists(filepath.Join(dir, "docs", filepath.FromSlash(deep), "ok.md")) || res.Files != 2 {
		t.Fatalf("%+v: the file at level 256 was not checked out", res)
	}
}
