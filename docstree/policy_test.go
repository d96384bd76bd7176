package docstree

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/report"
)

func link(t *testing.T, target, at string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, at); err != nil {
		t.Fatal(err)
	}
}

func collectedRels(t *testing.T, repo string, roots []string, p Policy) ([]string, []report.Issue) {
	t.Helper()
	files, issues, err := CollectDocs(repo, roots, p)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		out = append(out, f.Rel)
	}
	return out, issues
}

// issueAt returns the issue with code at path, or fails.
func issueAt(t *testing.T, issues []report.Issue, code, path string) report.Issue {
	t.Helper()
	for _, is := range issues {
		if is.Code == code && is.Path == path {
			return is
		}
	}
	t.Fatalf("no %s issue at %s in %+v", code, path, issues)
	return report.Issue{}
}

// Issue 16: a link in docs/ to ../.git/config published the clone's git
// configuration. Links into .git are refused even when the documentation
// root is the whole repository, and so is any link out of the roots.
func TestLinksIntoGitAndOutOfTheRootsAreRefused(t *testing.T) {
	repo := t.TempDir()
	write(t, repo, ".git/config", "[remote \"origin\"]\n\turl = https://user:token@host/r.git\n")
	write(t, repo, "docs/index.md", "# Home")
	write(t, repo, "guides/shared.md", "# Shared")
	write(t, repo, "README.md", "# Readme")
	link(t, "../.git/config", filepath.Join(repo, "docs/config.md"))
	link(t, "../.git", filepath.Join(repo, "docs/gitdir"))
	link(t, "../README.md", filepath.Join(repo, "docs/readme.md"))
	link(t, "../guides/shared.md", filepath.Join(repo, "docs/shared.md"))
	link(t, "index.md", filepath.Join(repo, "docs/home.md"))
	link(t, ".git/config", filepath.Join(repo, "top.md"))

	got, issues := collectedRels(t, repo, []string{"docs", "guides"}, Policy{})
	if want := []string{"home.md", "index.md", "shared.md"}; !slices.Equal(got, want) {
		t.Fatalf("collected %v, want %v", got, want)
	}
	if is := issueAt(t, issues, report.CodeSymlinkEscape, "docs/config.md"); !strings.Contains(is.Message, "into .git") {
		t.Fatalf("message %q", is.Message)
	}
	if is := issueAt(t, issues, report.CodeSymlinkEscape, "docs/readme.md"); !strings.Contains(is.Message, "outside the documentation roots") {
		t.Fatalf("message %q", is.Message)
	}

	// The whole repository as the root: the link stays inside the root but
	// points into .git.
	got, issues = collectedRels(t, repo, []string{"."}, Policy{})
	if slices.Contains(got, "top.md") || slices.Contains(got, ".git/config") || slices.Contains(got, "docs/config.md") {
		t.Fatalf("collected the git configuration: %v", got)
	}
	issueAt(t, issues, report.CodeSymlinkEscape, "top.md")
	if !slices.Contains(got, "README.md") || !slices.Contains(got, "docs/readme.md") {
		t.Fatalf("links inside the root were lost: %v", got)
	}
}

func TestRootThroughALinkOutOfTheRepositoryIsRefused(t *testing.T) {
	repo, outside := t.TempDir(), t.TempDir()
	write(t, outside, "docs/secret.md", "secret")
	link(t, outside, filepath.Join(repo, "vendor"))
	got, issues := collectedRels(t, repo, []string{"vendor/docs"}, Policy{})
	if len(got) != 0 {
		t.Fatalf("collected %v through a link out of the repository", got)
	}
	issueAt(t, issues, report.CodeSymlinkEscape, "vendor/docs")
}

// Names that cannot be written safely skip that file (or directory), never
// the repository.
func TestUnsafeNamesAreSkippedOneByOne(t *testing.T) {
	repo := t.TempDir()
	write(t, repo, "docs/ok.md", "# ok")
	write(t, repo, "docs/bad\x01name.md", "x")
	write(t, repo, "docs/.GIT/config", "x")
	write(t, repo, "docs/sub/git~1", "x")
	got, issues := collectedRels(t, repo, []string{"docs"}, Policy{})
	if !slices.Equal(got, []string{"ok.md"}) {
		t.Fatalf("collected %v", got)
	}
	issueAt(t, issues, report.CodeUnsafePath, `"docs/bad\x01name.md"`)
	issueAt(t, issues, report.CodeUnsafePath, "docs/.GIT")
	issueAt(t, issues, report.CodeUnsafePath, "docs/sub/git~1")
}

func TestFileAndPageLimits(t *testing.T) {
	repo := t.TempDir()
	write(t, repo, "docs/small.md", "# small")
	write(t, repo, "docs/big.md", "# "+strings.Repeat("x", 200))
	write(t, repo, "docs/image.png", strings.Repeat("p", 150))
	write(t, repo, "docs/huge.bin", strings.Repeat("b", 1000))
	lim := config.InputLimits{MaxFileBytes: 500, MaxPageBytes: 100, MaxFiles: 10, MaxTotalBytes: 10_000}
	got, issues := collectedRels(t, repo, []string{"docs"}, Policy{Limits: lim})
	if want := []string{"image.png", "small.md"}; !slices.Equal(got, want) {
		t.Fatalf("collected %v, want %v", got, want)
	}
	issueAt(t, issues, report.CodePageTooLarge, "docs/big.md")
	is := issueAt(t, issues, report.CodeFileTooLarge, "docs/huge.bin")
	if !strings.Contains(is.Message, "build.limits.max_file_bytes (500)") {
		t.Fatalf("message %q does not name the setting", is.Message)
	}
}

func TestRepositoryOverItsLimitsIsRefusedAsAWhole(t *testing.T) {
	repo := t.TempDir()
	for _, f := range []string{"a.md", "b.md", "c.md", "d.md"} {
		write(t, repo, "docs/"+f, strings.Repeat("x", 100))
	}
	for name, lim := range map[string]config.InputLimits{
		"files": {MaxFiles: 3},
		"bytes": {MaxTotalBytes: 250},
	} {
		_, _, err := CollectDocs(repo, []string{"docs"}, Policy{Limits: lim})
		var tooLarge *TooLargeError
		if !errors.As(err, &tooLarge) || tooLarge.Issue.Code != report.CodeRepositoryTooLarge || tooLarge.Issue.Severity != report.SeverityError {
			t.Fatalf("%s: err = %v, want a REPOSITORY_TOO_LARGE refusal", name, err)
		}
	}
	if _, _, err := CollectDocs(repo, []string{"docs"}, Policy{Limits: config.InputLimits{MaxFiles: 4, MaxTotalBytes: 400}}); err != nil {
		t.Fatalf("exactly at the limits: %v", err)
	}
}

func TestUntrustedRepositoriesPublishNoActiveDocuments(t *testing.T) {
	repo := t.TempDir()
	write(t, repo, "docs/page.md", "# page <script>x</script>")
	write(t, repo, "docs/logo.png", "\x89PNG\r\n\x1a\n")
	write(t, repo, "docs/notes.txt", "<html><script>alert(1)</script>")
	write(t, repo, "docs/demo.html", "<script>alert(1)</script>")
	write(t, repo, "docs/icon.SVG", "<svg onload=alert(1)>")
	write(t, repo, "docs/feed.xml", "<x/>")
	write(t, repo, "docs/noext", "<!DOCTYPE html><script>alert(1)</script>")
	write(t, repo, "docs/data.unknownext", "<html><body onload=alert(1)>")
	trusted, _ := collectedRels(t, repo, []string{"docs"}, Policy{})
	if len(trusted) != 8 {
		t.Fatalf("a trusted repository publishes every file, got %v", trusted)
	}
	got, issues := collectedRels(t, repo, []string{"docs"}, Policy{Untrusted: true})
	if want := []string{"logo.png", "notes.txt", "page.md"}; !slices.Equal(got, want) {
		t.Fatalf("collected %v, want %v", got, want)
	}
	for _, p := range []string{"docs/demo.html", "docs/icon.SVG", "docs/feed.xml", "docs/noext", "docs/data.unknownext"} {
		issueAt(t, issues, report.CodeUntrustedFile, p)
	}
}

func TestPolicyFor(t *testing.T) {
	cfg := config.Default()
	no := false
	p := PolicyFor(&cfg, config.Repository{Name: "x", Trusted: &no})
	if !p.Untrusted || p.Limits != cfg.Build.Limits {
		t.Fatalf("policy %+v", p)
	}
	if PolicyFor(&cfg, config.Repository{Name: "y"}).Untrusted {
		t.Fatal("a repository is trusted by default")
	}
}
