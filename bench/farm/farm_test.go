package farm

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestGenerateMakesCommittedRepositories(t *testing.T) {
	repos, err := Generate(Spec{Dir: t.TempDir(), Repos: 2, Pages: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(repos) != 2 {
		t.Fatalf("%d repositories", len(repos))
	}
	pages, _ := filepath.Glob(filepath.Join(repos[1].Path, "docs", "*", "page*.md"))
	if len(pages) != 5 {
		t.Fatalf("%d pages, want 5", len(pages))
	}
	out, err := exec.Command("git", "-C", repos[0].Path, "status", "--porcelain").Output()
	if err != nil || strings.TrimSpace(string(out)) != "" {
		t.Fatalf("uncommitted files: %q (%v)", out, err)
	}
	data, _ := os.ReadFile(pages[0])
	if !strings.HasPrefix(string(data), "---\ntitle:") || !strings.Contains(string(data), "```go") {
		t.Fatalf("page lacks front matter or code:\n%s", data)
	}
}
