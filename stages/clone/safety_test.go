package clone

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/report"
)

// treeFiles materializes a clone's tree and lists its files.
func treeFiles(t *testing.T, st artifact.Store, ref string) []string {
	t.Helper()
	dir := t.TempDir()
	if err := st.Materialize(context.Background(), artifact.Ref(ref), dir); err != nil {
		t.Fatal(err)
	}
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	})
	slices.Sort(out)
	return out
}

func issueCodes(issues []report.Issue) map[string][]string {
	m := map[string][]string{}
	for _, is := range issues {
		m[is.Code] = append(m[is.Code], is.Path)
	}
	return m
}

// Issue 16: crafted tree names failed the whole repository with "directory
// not found"; a link to ../.git/config published the git configuration; a
// 200 MB file was published as is. Each is now one file skipped and
// reported, and the repository builds.
func TestCloneSkipsUnsafeEntriesLinksAndLargeFilesOneByOne(t *testing.T) {
	repo := gittest.NewRepo(t, map[string]string{"README.md": "r"})
	repo.CommitRaw(t, []gittest.RawEntry{
		{Path: "docs/index.md", Content: "# Home"},
		{Path: "docs/.GIT/config", Content: "x"},
		{Path: "docs/../up.md", Content: "x"},
		{Path: "docs/ctl\x07.md", Content: "x"},
		{Path: "docs/git-config.md", Content: "../.git/config", Link: true},
		{Path: "docs/big.bin", Content: strings.Repeat("b", 4096)},
		{Path: "src/.GIT/x", Content: "not documentation: not reported"},
	}, "crafted")
	st, cfg, store := newStageStore(t, config.Repository{Name: "docs", URL: repo.FileURL(), Paths: []string{"docs"}})
	cfg.Build.Limits.MaxFileBytes = 1024
	out, err := st.Handle(context.Background(), job("docs"))
	if err != nil {
		t.Fatal(err)
	}
	got := out[0].(*events.RepoCloned)
	if got.Failure != nil {
		t.Fatalf("the repository failed: %+v", got.Failure)
	}
	if files := treeFiles(t, store, got.Tree); !slices.Equal(files, []string{"index.md"}) {
		t.Fatalf("tree %v, want only index.md", files)
	}
	codes := issueCodes(got.Issues)
	unsafe := codes[report.CodeUnsafePath]
	slices.Sort(unsafe)
	if want := []string{`"docs/ctl\a.md"`, "docs/..", "docs/.GIT"}; !slices.Equal(unsafe, want) {
		t.Fatalf("UNSAFE_PATH at %q, want %q", unsafe, want)
	}
	if !slices.Equal(codes[report.CodeSymlinkEscape], []string{"docs/git-config.md"}) || !slices.Equal(codes[report.CodeFileTooLarge], []string{"docs/big.bin"}) {
		t.Fatalf("issues %+v", got.Issues)
	}
	for _, is := range got.Issues {
		if is.Repository != "docs" || is.Stage != Name || is.Severity != report.SeverityWarning {
			t.Fatalf("issue not attributed: %+v", is)
		}
	}
}

func TestCloneSkipsARepositoryOverItsFileLimit(t *testing.T) {
	repo := gittest.NewRepo(t, map[string]string{"docs/a.md": "a", "docs/b.md": "b", "docs/c.md": "c"})
	st, cfg := newStage(t, config.Repository{Name: "docs", URL: repo.FileURL()})
	cfg.Build.Limits.MaxFiles = 2
	out, err := st.Handle(context.Background(), job("docs"))
	if err != nil {
		t.Fatal(err)
	}
	got := out[0].(*events.RepoCloned)
	if got.Failure == nil || got.Failure.Code != report.CodeRepositoryTooLarge || got.Tree != "" {
		t.Fatalf("failure %+v tree %q, want REPOSITORY_TOO_LARGE and no tree", got.Failure, got.Tree)
	}
	if got.Failure.Repository != "docs" || !strings.Contains(got.Failure.Message, "max_files (2)") {
		t.Fatalf("failure %+v", got.Failure)
	}
}

func TestCloneOfAnUntrustedRepositoryLeavesOutActiveDocuments(t *testing.T) {
	repo := gittest.NewRepo(t, map[string]string{"docs/a.md": "# a", "docs/demo.html": "<script>", "docs/logo.svg": "<svg/>", "docs/logo.png": "png"})
	no := false
	st, _, store := newStageStore(t, config.Repository{Name: "docs", URL: repo.FileURL(), Trusted: &no})
	out, err := st.Handle(context.Background(), job("docs"))
	if err != nil {
		t.Fatal(err)
	}
	got := out[0].(*events.RepoCloned)
	if files := treeFiles(t, store, got.Tree); !slices.Equal(files, []string{"a.md", "logo.png"}) {
		t.Fatalf("tree %v", files)
	}
	if n := len(issueCodes(got.Issues)[report.CodeUntrustedFile]); n != 2 {
		t.Fatalf("issues %+v", got.Issues)
	}
}
