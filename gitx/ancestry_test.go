package gitx

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/docweave/docweave/internal/gittest"
)

func TestReachableInFullHistory(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "1"})
	first := r.Head(t)
	r.Commit(t, map[string]string{"a.md": "2"}, "2")
	r.Git(t, "checkout", "-q", "-b", "side", first)
	side := r.Commit(t, map[string]string{"b.md": "side"}, "side")
	r.Git(t, "checkout", "-q", "main")
	r.Git(t, "merge", "-q", "--no-edit", "side")
	merge := r.Head(t)

	repo, err := git.PlainOpen(r.Dir())
	if err != nil {
		t.Fatal(err)
	}
	h := plumbing.NewHash
	if found, complete, err := reachable(repo.Storer, h(merge), h(side)); !found || !complete || err != nil {
		t.Fatalf("side parent of the merge not found: %v %v %v", found, complete, err)
	}
	if found, complete, _ := reachable(repo.Storer, h(first), h(merge)); found || !complete {
		t.Fatalf("a descendant reported as ancestor: found=%v complete=%v", found, complete)
	}
	if found, _, _ := reachable(repo.Storer, h(first), h(first)); !found {
		t.Fatal("a commit is reachable from itself")
	}
}

func TestReachableReportsShallowEdge(t *testing.T) {
	r := repoWithHistory(t, 4)
	base := r.Git(t, "rev-parse", "HEAD~3")
	dir := workdir(t)
	mustAcquire(t, Request{URL: r.FileURL(), Dir: dir, Depth: 1})
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	found, complete, err := reachable(repo.Storer, plumbing.NewHash(r.Head(t)), plumbing.NewHash(base))
	if found || complete || err != nil {
		t.Fatalf("in a depth-1 clone the walk must stop incomplete: found=%v complete=%v err=%v", found, complete, err)
	}
}

func TestPruneShallowDropsDeepenedEntries(t *testing.T) {
	r := repoWithHistory(t, 3)
	dir := workdir(t)
	mustAcquire(t, Request{URL: r.FileURL(), Dir: dir, Depth: 1})
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	err = repo.FetchContext(context.Background(), &git.FetchOptions{Depth: unlimitedDepth, Tags: git.NoTags})
	if err != nil && err != git.NoErrAlreadyUpToDate {
		t.Fatal(err)
	}
	before := readFile(t, filepath.Join(dir, ".git", "shallow"))
	if strings.TrimSpace(before) == "" {
		t.Fatal("precondition: go-git leaves stale shallow entries after deepening")
	}
	if err := pruneShallow(repo.Storer); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, ".git", "shallow"))
	if strings.TrimSpace(string(after)) != "" {
		t.Fatalf("stale shallow entries remain: %q", after)
	}
	if got := commitCount(t, dir); got != 3 {
		t.Fatalf("git sees %d commits, want the full 3", got)
	}
}

func TestDeeperSequence(t *testing.T) {
	var got []int
	for d := 1; d != 0; d = deeper(d) {
		got = append(got, d)
	}
	want := []int{1, 8, 64, 512, 4096, unlimitedDepth}
	if len(got) != len(want) {
		t.Fatalf("sequence %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("sequence %v, want %v", got, want)
		}
	}
	if deeper(0) != unlimitedDepth {
		t.Fatal("a full-depth request that is still shallow must unshallow")
	}
}
