package gittest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNewRepoCommitsFilesOnMain(t *testing.T) {
	r := NewRepo(t, map[string]string{"docs/index.md": "# Home", "README.md": "hi"})
	if got := r.Git(t, "symbolic-ref", "--short", "HEAD"); got != "main" {
		t.Fatalf("branch = %q, want main", got)
	}
	files := r.Git(t, "ls-tree", "-r", "--name-only", "HEAD")
	if files != "README.md\ndocs/index.md" {
		t.Fatalf("committed files = %q", files)
	}
	if got := r.Git(t, "rev-list", "--count", "HEAD"); got != "1" {
		t.Fatalf("commits = %s, want 1", got)
	}
	if len(r.Head(t)) != 40 {
		t.Fatalf("Head %q is not a full hash", r.Head(t))
	}
}

func TestCommitOverwritesAndReturnsHash(t *testing.T) {
	r := NewRepo(t, map[string]string{"a.md": "one"})
	first := r.Head(t)
	hash := r.Commit(t, map[string]string{"a.md": "two", "b/c.md": "new"}, "second")
	if hash == first || hash != r.Head(t) {
		t.Fatalf("Commit returned %s, head %s, first %s", hash, r.Head(t), first)
	}
	if got := r.Git(t, "show", "HEAD:a.md"); got != "two" {
		t.Fatalf("a.md = %q", got)
	}
	if got := r.Git(t, "log", "-1", "--format=%s"); got != "second" {
		t.Fatalf("message = %q", got)
	}
}

func TestRemoveDeletesAndCommits(t *testing.T) {
	r := NewRepo(t, map[string]string{"keep.md": "k", "old/x.md": "x", "old/y.md": "y"})
	r.Remove(t, []string{"old"}, "drop old")
	if files := r.Git(t, "ls-tree", "-r", "--name-only", "HEAD"); files != "keep.md" {
		t.Fatalf("files after remove = %q", files)
	}
	if _, err := os.Stat(filepath.Join(r.Dir(), "old")); !os.IsNotExist(err) {
		t.Fatalf("old/ still in the working tree: %v", err)
	}
}

func TestBranchAndTags(t *testing.T) {
	r := NewRepo(t, map[string]string{"a.md": "a"})
	r.Branch(t, "release")
	r.Tag(t, "v1", true)
	r.Tag(t, "v1-light", false)
	if got := r.Git(t, "symbolic-ref", "--short", "HEAD"); got != "main" {
		t.Fatalf("Branch must not check out, HEAD on %q", got)
	}
	if got := r.Git(t, "rev-parse", "release"); got != r.Head(t) {
		t.Fatalf("release at %s, want %s", got, r.Head(t))
	}
	if got := r.Git(t, "cat-file", "-t", "v1"); got != "tag" {
		t.Fatalf("annotated tag object type = %q", got)
	}
	if got := r.Git(t, "cat-file", "-t", "v1-light"); got != "commit" {
		t.Fatalf("lightweight tag type = %q", got)
	}
}

func TestFileURLClones(t *testing.T) {
	r := NewRepo(t, map[string]string{"a.md": "a"})
	if !strings.HasPrefix(r.FileURL(), "file:///") {
		t.Fatalf("FileURL = %q", r.FileURL())
	}
	dst := filepath.Join(t.TempDir(), "clone")
	Git(t, t.TempDir(), "clone", "-q", r.FileURL(), dst)
	if got := Git(t, dst, "rev-parse", "HEAD"); got != r.Head(t) {
		t.Fatalf("clone HEAD %s, want %s", got, r.Head(t))
	}
}

func TestWriteFilesRejectsEscapingPaths(t *testing.T) {
	r := NewRepo(t, nil)
	for _, name := range []string{"../evil.md", "/abs.md", ""} {
		fake := &recordingTB{TB: t}
		func() {
			defer func() { _ = recover() }()
			r.writeFiles(fake, map[string]string{name: "x"})
		}()
		if !strings.Contains(fake.fatal, "relative path") {
			t.Errorf("%q: want a relative-path error, got %q", name, fake.fatal)
		}
	}
}

func TestNewBulkRepoCommitsEveryFile(t *testing.T) {
	files := map[string]string{"docs/index.md": "# Home", "gen/a.txt": "a", "gen/b.txt": ""}
	r := NewBulkRepo(t, files)
	if got := r.Git(t, "ls-tree", "-r", "--name-only", "HEAD"); got != "docs/index.md\ngen/a.txt\ngen/b.txt" {
		t.Fatalf("tree lists %q", got)
	}
	if got := r.Git(t, "show", "HEAD:docs/index.md"); got != "# Home" {
		t.Fatalf("docs/index.md reads %q", got)
	}
	if st := r.Git(t, "status", "--porcelain"); st != "" {
		t.Fatalf("working tree not checked out: %q", st)
	}
}
