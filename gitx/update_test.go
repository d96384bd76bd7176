package gitx

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docweave/docweave/internal/gittest"
)

func TestUpdateMovesWorkspaceToNewCommit(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"docs/a.md": "a1", "docs/old.md": "old"})
	url := gittest.NewHTTPServer(t, gittest.HTTPOptions{}).Add(t, "docs", r)
	dir := workdir(t)
	req := Request{URL: url, Dir: dir, Depth: 1, Strategy: StrategyUpdate}

	first := mustAcquire(t, req) // absent workspace: update clones
	if first.Commit != r.Head(t) || first.Updated {
		t.Fatalf("first acquire %+v", first)
	}
	r.Commit(t, map[string]string{"docs/a.md": "a2", "docs/new.md": "new"}, "edit")
	next := r.Remove(t, []string{"docs/old.md"}, "drop old")

	res := mustAcquire(t, req)
	if res.Commit != next || !res.Updated || res.FellBackToFresh {
		t.Fatalf("update result %+v, want Updated at %s", res, next)
	}
	if got := readFile(t, filepath.Join(dir, "docs/a.md")); got != "a2" {
		t.Fatalf("docs/a.md = %q", got)
	}
	if !exists(filepath.Join(dir, "docs/new.md")) || exists(filepath.Join(dir, "docs/old.md")) {
		t.Fatal("added file missing or removed file still present")
	}
	if gitHead(t, dir) != next {
		t.Fatalf("git says HEAD is %s, want %s", gitHead(t, dir), next)
	}
	if status := gittest.Git(t, dir, "status", "--porcelain"); status != "" {
		t.Fatalf("workspace not clean after update:\n%s", status)
	}

	again := mustAcquire(t, req)
	if again.Updated || again.Commit != next {
		t.Fatalf("no remote change must not count as an update: %+v", again)
	}
}

func TestShallowUpdateAcrossSeveralCommitsIsNotDivergence(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "1"})
	url := gittest.NewHTTPServer(t, gittest.HTTPOptions{}).Add(t, "docs", r)
	dir := workdir(t)
	req := Request{URL: url, Dir: dir, Depth: 1, Strategy: StrategyUpdate}
	mustAcquire(t, req)
	for i := range 12 { // more than one deepening step (1 → 8 → 64)
		r.Commit(t, map[string]string{"a.md": strings.Repeat("x", i+2)}, "step")
	}
	res := mustAcquire(t, req)
	if res.Commit != r.Head(t) || !res.Updated {
		t.Fatalf("update over 12 commits: %+v, want %s", res, r.Head(t))
	}
	// The shallow list must stay consistent for the git command line.
	if out := gittest.Git(t, dir, "fsck", "--connectivity-only"); strings.Contains(out, "missing") {
		t.Fatalf("fsck: %s", out)
	}
	if gitHead(t, dir) != r.Head(t) {
		t.Fatal("git disagrees about HEAD")
	}
}

func TestForcePushIsDivergence(t *testing.T) {
	for _, depth := range []int{1, 0} {
		r := gittest.NewRepo(t, map[string]string{"a.md": "base"})
		r.Commit(t, map[string]string{"a.md": "published"}, "published")
		url := gittest.NewHTTPServer(t, gittest.HTTPOptions{}).Add(t, "docs", r)
		dir := workdir(t)
		req := Request{URL: url, Dir: dir, Depth: depth, Strategy: StrategyUpdate}
		before := mustAcquire(t, req)

		// Rewrite history on the remote: drop the last commit, commit anew.
		r.Git(t, "reset", "-q", "--hard", "HEAD~1")
		rewritten := r.Commit(t, map[string]string{"a.md": "rewritten"}, "rewritten")

		gerr := acquireError(t, req, noRetry())
		expectCode(t, gerr, CodeDiverged, 1)
		if !strings.Contains(gerr.Error(), "hard_reset_on_diverge") {
			t.Errorf("depth %d: error should tell how to proceed: %v", depth, gerr)
		}
		if gitHead(t, dir) != before.Commit {
			t.Errorf("depth %d: a refused update moved the workspace", depth)
		}

		req.HardResetOnDiverge = true
		res := mustAcquire(t, req)
		if res.Commit != rewritten || !res.Updated || readFile(t, filepath.Join(dir, "a.md")) != "rewritten" {
			t.Errorf("depth %d: hard reset on diverge: %+v", depth, res)
		}
	}
}

func TestLocalCommitIsDivergence(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "a"})
	dir := workdir(t)
	req := Request{URL: r.FileURL(), Dir: dir, Depth: 1, Strategy: StrategyAuto}
	mustAcquire(t, req)
	if err := os.WriteFile(filepath.Join(dir, "local.md"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "add", "local.md")
	gittest.Git(t, dir, "commit", "-q", "-m", "local work")

	expectCode(t, acquireError(t, req, noRetry()), CodeDiverged, 1)

	req.HardResetOnDiverge = true
	res := mustAcquire(t, req)
	if res.Commit != r.Head(t) || exists(filepath.Join(dir, "local.md")) {
		t.Fatalf("reset did not drop the local commit: %+v", res)
	}
}

func TestUpdateKeepsOrCleansUntrackedFiles(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "a", ".gitignore": "*.log\n"})
	dir := workdir(t)
	req := Request{URL: r.FileURL(), Dir: dir, Strategy: StrategyUpdate}
	mustAcquire(t, req)
	write := func(name, content string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("untracked.md", "u")
	write("scratch/nested.md", "n")
	write("build.log", "ignored")
	write("a.md", "locally modified")

	r.Commit(t, map[string]string{"b.md": "b"}, "b")
	mustAcquire(t, req)
	if !exists(filepath.Join(dir, "untracked.md")) || !exists(filepath.Join(dir, "scratch/nested.md")) {
		t.Fatal("an update without clean_untracked removed untracked files")
	}
	if got := readFile(t, filepath.Join(dir, "a.md")); got != "a" {
		t.Fatalf("hard reset did not restore a tracked file: %q", got)
	}

	r.Commit(t, map[string]string{"c.md": "c"}, "c")
	req.CleanUntracked = true
	mustAcquire(t, req)
	if exists(filepath.Join(dir, "untracked.md")) || exists(filepath.Join(dir, "scratch")) {
		t.Fatal("clean_untracked left untracked files or directories")
	}
	if !exists(filepath.Join(dir, "build.log")) {
		t.Fatal("clean_untracked removed an ignored file (it should behave like git clean -fd)")
	}
	if !exists(filepath.Join(dir, "c.md")) {
		t.Fatal("update content missing")
	}
}

func TestUpdateSwitchesBranch(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "main"})
	r.Git(t, "checkout", "-q", "-b", "v2")
	v2 := r.Commit(t, map[string]string{"a.md": "v2", "only-v2.md": "x"}, "v2")
	r.Git(t, "checkout", "-q", "main")
	dir := workdir(t)
	mustAcquire(t, Request{URL: r.FileURL(), Dir: dir, Strategy: StrategyUpdate})
	res := mustAcquire(t, Request{URL: r.FileURL(), Dir: dir, Strategy: StrategyUpdate, Branch: "v2"})
	if res.Commit != v2 || res.Branch != "v2" || !res.Updated {
		t.Fatalf("switch to v2: %+v", res)
	}
	if got := gittest.Git(t, dir, "symbolic-ref", "--short", "HEAD"); got != "v2" {
		t.Fatalf("HEAD on %q", got)
	}
	res = mustAcquire(t, Request{URL: r.FileURL(), Dir: dir, Strategy: StrategyUpdate, Branch: "main"})
	if res.Commit != r.Head(t) || exists(filepath.Join(dir, "only-v2.md")) {
		t.Fatalf("switch back to main: %+v", res)
	}
}

func TestUpdateToTag(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "1"})
	r.Tag(t, "v1", true)
	dir := workdir(t)
	req := Request{URL: r.FileURL(), Dir: dir, Strategy: StrategyUpdate, Branch: "v1", Depth: 1}
	first := mustAcquire(t, req)
	r.Commit(t, map[string]string{"a.md": "2"}, "two")
	r.Git(t, "tag", "-f", "-a", "-m", "moved", "v1") // tags can move too
	res := mustAcquire(t, req)
	if res.Commit != r.Head(t) || res.Commit == first.Commit || readFile(t, filepath.Join(dir, "a.md")) != "2" {
		t.Fatalf("moved tag not followed: %+v", res)
	}
}

func TestUpdateRefusesCorruptWorkspace(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "a"})
	dir := workdir(t)
	req := Request{URL: r.FileURL(), Dir: dir, Strategy: StrategyUpdate}
	mustAcquire(t, req)
	if err := os.RemoveAll(filepath.Join(dir, ".git", "objects")); err != nil {
		t.Fatal(err)
	}
	gerr := acquireError(t, req, noRetry())
	expectCode(t, gerr, CodeCorruptWorkspace, 1)
	if !strings.Contains(gerr.Error(), dir) {
		t.Fatalf("error does not name the workspace: %v", gerr)
	}
}

func TestUpdateRefusesWorkspaceOfAnotherURL(t *testing.T) {
	a := gittest.NewRepo(t, map[string]string{"a.md": "a"})
	b := gittest.NewRepo(t, map[string]string{"b.md": "b"})
	dir := workdir(t)
	mustAcquire(t, Request{URL: a.FileURL(), Dir: dir})
	gerr := acquireError(t, Request{URL: b.FileURL(), Dir: dir, Strategy: StrategyUpdate}, noRetry())
	expectCode(t, gerr, CodeCorruptWorkspace, 1)
	if !strings.Contains(gerr.Error(), "clone of") {
		t.Fatalf("error should say whose clone it is: %v", gerr)
	}
}

func TestAutoStrategy(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "a"})
	other := gittest.NewRepo(t, map[string]string{"z.md": "z"})

	t.Run("absent workspace clones without fallback", func(t *testing.T) {
		res := mustAcquire(t, Request{URL: r.FileURL(), Dir: workdir(t), Strategy: StrategyAuto})
		if res.FellBackToFresh || res.Updated || res.Commit != r.Head(t) {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("valid workspace is updated", func(t *testing.T) {
		dir := workdir(t)
		mustAcquire(t, Request{URL: r.FileURL(), Dir: dir})
		if err := os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("k"), 0o644); err != nil {
			t.Fatal(err)
		}
		next := r.Commit(t, map[string]string{"a.md": "a2"}, "a2")
		res := mustAcquire(t, Request{URL: r.FileURL(), Dir: dir, Strategy: StrategyAuto})
		if !res.Updated || res.FellBackToFresh || res.Commit != next {
			t.Fatalf("%+v", res)
		}
		if !exists(filepath.Join(dir, "keep.txt")) {
			t.Fatal("auto replaced a valid workspace instead of updating it")
		}
	})
	corruptions := map[string]func(t *testing.T, dir string){
		"objects removed": func(t *testing.T, dir string) {
			if err := os.RemoveAll(filepath.Join(dir, ".git", "objects")); err != nil {
				t.Fatal(err)
			}
		},
		"garbage HEAD": func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("\x00garbage"), 0o644); err != nil {
				t.Fatal(err)
			}
		},
		"garbage index": func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, ".git", "index"), []byte("DIRC garbage"), 0o644); err != nil {
				t.Fatal(err)
			}
		},
		"not a repository": func(t *testing.T, dir string) {
			if err := os.RemoveAll(filepath.Join(dir, ".git")); err != nil {
				t.Fatal(err)
			}
		},
		"clone of another URL": func(t *testing.T, dir string) {
			gittest.Git(t, dir, "remote", "set-url", "origin", other.FileURL())
		},
	}
	for name, corrupt := range corruptions {
		t.Run(name+" falls back to fresh", func(t *testing.T) {
			dir := workdir(t)
			mustAcquire(t, Request{URL: r.FileURL(), Dir: dir})
			corrupt(t, dir)
			res := mustAcquire(t, Request{URL: r.FileURL(), Dir: dir, Strategy: StrategyAuto})
			if !res.FellBackToFresh || res.Commit != r.Head(t) {
				t.Fatalf("%+v", res)
			}
			if gitHead(t, dir) != r.Head(t) {
				t.Fatal("the fresh clone is not usable by git")
			}
		})
	}
}
