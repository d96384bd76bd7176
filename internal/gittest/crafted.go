package gittest

import (
	"bytes"
	"fmt"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// RawEntry is one entry of a tree written with git's plumbing, which —
// unlike `git add` — accepts any name: "..", ".GIT", control characters,
// and even two entries of the same name. Repositories arrive like that
// from hostile or broken forges, so tests need them.
type RawEntry struct {
	// Path is slash-separated; every component is taken literally.
	Path string
	// Content is the blob's content (a symbolic link's target when Link).
	Content string
	// Link makes the entry a symbolic link (mode 120000).
	Link bool
}

// CommitRaw commits a tree made of exactly entries on top of the branch
// HEAD points at (the working tree is not touched) and returns the commit
// hash. Entries with equal paths are kept as duplicates.
func (r *Repo) CommitRaw(t testing.TB, entries []RawEntry, msg string) string {
	t.Helper()
	root := r.rawTree(t, entries, "")
	args := []string{"commit-tree", root, "-m", msg}
	if parent := r.headOrEmpty(t); parent != "" {
		args = append(args, "-p", parent)
	}
	commit := Git(t, r.dir, args...)
	Git(t, r.dir, "update-ref", "HEAD", commit)
	return commit
}

func (r *Repo) headOrEmpty(t testing.TB) string {
	t.Helper()
	cmd := exec.Command(RequireGit(t), "rev-parse", "--verify", "-q", "HEAD")
	cmd.Dir, cmd.Env = r.dir, GitEnv()
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// rawTree writes the tree of the entries below prefix and returns its hash.
func (r *Repo) rawTree(t testing.TB, entries []RawEntry, prefix string) string {
	t.Helper()
	var lines []string
	subdirs := map[string][]RawEntry{}
	var order []string
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Path, prefix)
		if !ok {
			continue
		}
		name, below, nested := strings.Cut(rest, "/")
		if nested && below != "" {
			if _, seen := subdirs[name]; !seen {
				order = append(order, name)
			}
			subdirs[name] = append(subdirs[name], e)
			continue
		}
		blob := r.hashObject(t, e.Content)
		mode := "100644"
		if e.Link {
			mode = "120000"
		}
		lines = append(lines, fmt.Sprintf("%s blob %s\t%s", mode, blob, name))
	}
	for _, name := range order {
		lines = append(lines, fmt.Sprintf("040000 tree %s\t%s", r.rawTree(t, subdirs[name], prefix+name+"/"), name))
	}
	sort.SliceStable(lines, func(i, j int) bool {
		return strings.SplitN(lines[i], "\t", 2)[1] < strings.SplitN(lines[j], "\t", 2)[1]
	})
	return r.gitStdin(t, strings.Join(lines, "\n")+"\n", "mktree", "--missing")
}

func (r *Repo) hashObject(t testing.TB, content string) string {
	t.Helper()
	return r.gitStdin(t, content, "hash-object", "-w", "--stdin")
}

// gitStdin runs git with stdin and returns its trimmed output.
func (r *Repo) gitStdin(t testing.TB, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(RequireGit(t), args...)
	cmd.Dir, cmd.Env = r.dir, GitEnv()
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("gittest: git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(stdout.String())
}
