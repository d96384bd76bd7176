package farm

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestGenerateMakesCommittedRepositories(t *testing.T) {
	repos, err := Generate(Spec{Dir: t.TempDir(), Repos: 2, Pages: 5, LinkBases: []string{"http://a.test", "http://b.test"}})
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
	for _, want := range []string{"---\ntitle:", "tags: [", "```go", "| Option |", "![", "(../images/flow.png)", ".md)", "http://a.test/", "http://b.test/"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("page lacks %q:\n%s", want, data)
		}
	}
	if img, err := os.ReadFile(filepath.Join(repos[0].Path, "docs", "images", "flow.png")); err != nil || !strings.HasPrefix(string(img), "\x89PNG") {
		t.Fatalf("image missing or not a PNG: %v", err)
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, err := Generate(Spec{Dir: t.TempDir(), Repos: 1, Pages: 3})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(Spec{Dir: t.TempDir(), Repos: 1, Pages: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"docs/howto/page002.md", "docs/images/parts.png"} {
		x, _ := os.ReadFile(filepath.Join(a[0].Path, rel))
		y, _ := os.ReadFile(filepath.Join(b[0].Path, rel))
		if len(x) == 0 || string(x) != string(y) {
			t.Fatalf("%s differs between two generations of the same spec", rel)
		}
	}
}

func TestGenerateRejectsAnEmptySpec(t *testing.T) {
	_, err := Generate(Spec{Dir: t.TempDir(), Repos: 0, Pages: 5})
	if err == nil || !strings.Contains(err.Error(), "repos and pages must be at least 1") {
		t.Fatalf("got %v", err)
	}
}

func TestChangeCommitsOneEdition(t *testing.T) {
	repos, err := Generate(Spec{Dir: t.TempDir(), Repos: 1, Pages: 2})
	if err != nil {
		t.Fatal(err)
	}
	head := func() string {
		out, err := exec.Command("git", "-C", repos[0].Path, "rev-parse", "HEAD").Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	before := head()
	if err := Change(repos[0], 1); err != nil {
		t.Fatal(err)
	}
	after := head()
	if err := Change(repos[0], 2); err != nil {
		t.Fatal(err)
	}
	if before == after || after == head() {
		t.Fatal("Change did not make a new commit each time")
	}
}
