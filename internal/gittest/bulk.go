package gittest

import (
	"fmt"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// NewBulkRepo makes a repository whose one commit on main holds files
// (slash path → content), written with `git fast-import` instead of the
// working tree and `git add`, so a repository of tens of thousands of
// files takes a second. Its working tree is checked out like NewRepo's.
func NewBulkRepo(t testing.TB, files map[string]string) *Repo {
	t.Helper()
	r := &Repo{dir: t.TempDir()}
	Git(t, r.dir, "init", "-q", "-b", "main")
	names := make([]string, 0, len(files))
	for name := range files {
		if strings.HasPrefix(name, "/") || strings.Contains("/"+name+"/", "/../") || strings.ContainsAny(name, "\n\"") {
			t.Fatalf("gittest: file name %q must be a plain relative path inside the repository", name)
		}
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("commit refs/heads/main\ncommitter Docweave Test <test@docweave.invalid> 1700000000 +0000\ndata 11\nbulk import\n")
	for _, name := range names {
		fmt.Fprintf(&b, "M 100644 inline %s\ndata %d\n%s\n", name, len(files[name]), files[name])
	}
	cmd := exec.Command(RequireGit(t), "fast-import", "--quiet")
	cmd.Dir, cmd.Env, cmd.Stdin = r.dir, GitEnv(), strings.NewReader(b.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gittest: git fast-import: %v: %s", err, out)
	}
	Git(t, r.dir, "reset", "-q", "--hard", "main")
	return r
}
