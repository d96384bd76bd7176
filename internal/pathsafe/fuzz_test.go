package pathsafe

import (
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzRel: a repository path Rel accepts is clean and relative, stays
// inside any directory it is joined to, and spells no .git. The seed
// corpus is in testdata/fuzz/FuzzRel.
func FuzzRel(f *testing.F) {
	for _, s := range []string{"docs/a.md", "../x", "a/.GIT/config", "a//b", "git~1/x", ".git. /x", "a\x00b", "ü/ß.md", "a/./b", "/abs"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rel string) {
		if Rel(rel) != "" {
			return
		}
		if rel == "" || path.Clean(rel) != rel || strings.HasPrefix(rel, "/") {
			t.Fatalf("Rel accepted %q, which is not a clean relative path", rel)
		}
		root := "/srv/site"
		joined := filepath.Join(root, filepath.FromSlash(rel))
		if r, err := filepath.Rel(root, joined); err != nil || r == ".." || strings.HasPrefix(r, "../") || r == "." {
			t.Fatalf("Rel accepted %q, which leaves the directory (%s)", rel, joined)
		}
		for _, part := range strings.Split(rel, "/") {
			if IsDotGit(part) || Name(part) != "" {
				t.Fatalf("Rel accepted %q with component %q", rel, part)
			}
		}
	})
}
