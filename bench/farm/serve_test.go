package farm

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestServeGitClonesTheFarmAndLaterCommits(t *testing.T) {
	root := t.TempDir()
	repos, err := Generate(Spec{Dir: root, Repos: 2, Pages: 3})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := ServeGit(root)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dst := filepath.Join(t.TempDir(), "clone")
	clone := exec.Command("git", "clone", "-q", "--depth", "1", srv.URL(repos[1].Name), dst)
	clone.Env = gitEnv()
	if out, err := clone.CombinedOutput(); err != nil {
		t.Fatalf("clone %s: %v: %s", srv.URL(repos[1].Name), err, out)
	}
	if _, err := os.Stat(filepath.Join(dst, "docs", "guide", "page000.md")); err != nil {
		t.Fatalf("clone lacks the pages: %v", err)
	}
	if err := Change(repos[1], 1); err != nil {
		t.Fatal(err)
	}
	pull := exec.Command("git", "-C", dst, "pull", "-q", "--ff-only", "origin", "main")
	pull.Env = gitEnv()
	if out, err := pull.CombinedOutput(); err != nil {
		t.Fatalf("pull: %v: %s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dst, "docs", "guide", "changes.md")); err != nil {
		t.Fatalf("the later commit is not served: %v", err)
	}
}
