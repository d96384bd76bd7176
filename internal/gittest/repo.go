package gittest

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Repo is a real, non-bare working repository made with the git command line
// in a temporary directory that the test removes when it ends. Its default
// branch is main.
type Repo struct {
	dir string
}

// NewRepo runs `git init -b main` in a fresh temporary directory, writes
// files (slash-separated relative path → content) and commits them, so a test
// starts from a repository with exactly one commit.
func NewRepo(t testing.TB, files map[string]string) *Repo {
	t.Helper()
	r := &Repo{dir: t.TempDir()}
	Git(t, r.dir, "init", "-q", "-b", "main")
	r.Commit(t, files, "initial commit")
	return r
}

// Open wraps a repository made elsewhere (a benchmark farm, say) so the
// servers of this package can serve it; the caller owns its directory.
func Open(dir string) *Repo { return &Repo{dir: dir} }

// Dir is the working directory of the repository.
func (r *Repo) Dir() string { return r.dir }

// Commit writes (creating or overwriting) files and commits everything in the
// working tree with msg, returning the new commit hash. An empty map makes an
// empty commit, which is handy to move a branch without changing content.
func (r *Repo) Commit(t testing.TB, files map[string]string, msg string) string {
	t.Helper()
	r.writeFiles(t, files)
	Git(t, r.dir, "add", "-A")
	Git(t, r.dir, "commit", "-q", "--allow-empty", "-m", msg)
	return r.Head(t)
}

// Remove deletes paths (files or directories, relative to the repository)
// and commits the removal with msg, returning the new commit hash.
func (r *Repo) Remove(t testing.TB, paths []string, msg string) string {
	t.Helper()
	args := append([]string{"rm", "-r", "-q", "--"}, paths...)
	Git(t, r.dir, args...)
	Git(t, r.dir, "commit", "-q", "--allow-empty", "-m", msg)
	return r.Head(t)
}

// Branch creates branch name at HEAD without checking it out.
func (r *Repo) Branch(t testing.TB, name string) {
	t.Helper()
	Git(t, r.dir, "branch", name)
}

// Tag creates tag name at HEAD; annotated makes a tag object (the kind
// release tooling makes) instead of a lightweight ref.
func (r *Repo) Tag(t testing.TB, name string, annotated bool) {
	t.Helper()
	if annotated {
		Git(t, r.dir, "tag", "-a", "-m", "release "+name, name)
		return
	}
	Git(t, r.dir, "tag", name)
}

// FileURL is the file:// URL of the repository, usable as a clone URL.
func (r *Repo) FileURL() string { return "file://" + filepath.ToSlash(r.dir) }

// Head is the commit hash HEAD points at.
func (r *Repo) Head(t testing.TB) string {
	t.Helper()
	return Git(t, r.dir, "rev-parse", "HEAD")
}

// Git runs any git command in the repository (for history rewrites, branch
// switches and other set-ups the typed helpers do not cover) and returns its
// trimmed standard output.
func (r *Repo) Git(t testing.TB, args ...string) string {
	t.Helper()
	return Git(t, r.dir, args...)
}

// writeFiles writes files in a stable order so failures are reproducible.
func (r *Repo) writeFiles(t testing.TB, files map[string]string) {
	t.Helper()
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		clean := filepath.Clean(filepath.FromSlash(name))
		if name == "" || filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
			t.Fatalf("gittest: file name %q must be a relative path inside the repository", name)
		}
		path := filepath.Join(r.dir, clean)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatalf("gittest: create directory for %s: %v", name, err)
		}
		if err := os.WriteFile(path, []byte(files[name]), 0o644); err != nil {
			t.Fatalf("gittest: write %s: %v", name, err)
		}
	}
}
