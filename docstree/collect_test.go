package docstree

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/docweave/docweave/report"
)

func write(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func codes(issues []report.Issue) map[string]int {
	m := map[string]int{}
	for _, is := range issues {
		m[is.Code]++
	}
	return m
}

func TestCollectDocsMergesRootsAndRefusesEscapes(t *testing.T) {
	repo := t.TempDir()
	outside := t.TempDir()
	write(t, repo, "docs/index.md", "# Home")
	write(t, repo, "docs/guide/setup.md", "# Setup")
	write(t, repo, "docs/.git/config", "secret")
	write(t, repo, "guides/index.md", "# Other home")
	write(t, repo, "guides/extra.md", "# Extra")
	write(t, repo, "src/main.go", "package main")
	write(t, outside, "passwd", "root:x")
	if err := os.Symlink(filepath.Join(outside, "passwd"), filepath.Join(repo, "docs", "leak.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../src/main.go", filepath.Join(repo, "docs", "code.md")); err != nil {
		t.Fatal(err)
	}
	files, issues, err := CollectDocs(repo, []string{"docs", "guides", "missing"}, Policy{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range files {
		got[f.Rel] = f.Source
	}
	for _, want := range []string{"index.md", "guide/setup.md", "extra.md"} {
		if _, ok := got[want]; !ok {
			t.Errorf("missing %s in %v", want, got)
		}
	}
	if len(got) != 3 {
		t.Errorf("collected %d files, want 3 (a link out of the documentation roots is not followed): %v", len(got), got)
	}
	if got["index.md"] != filepath.Join(repo, "docs", "index.md") {
		t.Errorf("first root must win for index.md, got %s", got["index.md"])
	}
	c := codes(issues)
	if c[report.CodeSymlinkEscape] != 2 || c[report.CodeDuplicatePath] != 1 || c[report.CodeDocsPathMissing] != 1 {
		t.Errorf("issues %v", issues)
	}
}

func TestCollectDocsReportsEmptyRepository(t *testing.T) {
	repo := t.TempDir()
	write(t, repo, "README.md", "hi")
	files, issues, err := CollectDocs(repo, []string{"docs"}, Policy{})
	if err != nil || len(files) != 0 {
		t.Fatalf("files %v err %v", files, err)
	}
	if c := codes(issues); c[report.CodeNoDocs] != 1 || c[report.CodeDocsPathMissing] != 1 {
		t.Fatalf("issues %v", issues)
	}
}

func TestPruneWorkspaceAllowDenyNeverGit(t *testing.T) {
	repo := t.TempDir()
	for _, f := range []string{".git/HEAD", "docs/a.md", "src/x.go", "assets/logo.png", "README.md", "docs-private/x.md", "vendor/y.go"} {
		write(t, repo, f, "x")
	}
	if _, err := PruneWorkspace(repo, []string{"docs/en"}, []string{"assets", "*.md", "vendor"}, []string{".git", "vendor", "docs-*"}); err != nil {
		t.Fatal(err)
	}
	for f, want := range map[string]bool{".git/HEAD": true, "docs/a.md": true, "assets/logo.png": true, "README.md": true, "src/x.go": false, "vendor/y.go": false, "docs-private/x.md": false} {
		_, err := os.Stat(filepath.Join(repo, f))
		if (err == nil) != want {
			t.Errorf("%s present=%v, want %v", f, err == nil, want)
		}
	}
}
