package gitx

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docweave/docweave/internal/gittest"
)

func TestFreshCloneOverFileURL(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"docs/index.md": "# Home"})
	dir := workdir(t)
	res := mustAcquire(t, Request{URL: r.FileURL(), Dir: dir, Depth: 1})
	if res.Commit != r.Head(t) || res.Branch != "main" || res.Ref != "refs/heads/main" || res.Attempts != 1 {
		t.Fatalf("result = %+v, want commit %s on main after 1 attempt", res, r.Head(t))
	}
	if res.Updated || res.FellBackToFresh {
		t.Fatalf("a first clone is neither an update nor a fallback: %+v", res)
	}
	if got := readFile(t, filepath.Join(dir, "docs/index.md")); got != "# Home" {
		t.Fatalf("docs/index.md = %q", got)
	}
	if gitHead(t, dir) != r.Head(t) {
		t.Fatal("the git command line disagrees about HEAD")
	}
}

func TestFreshCloneOverLocalPath(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "a"})
	res := mustAcquire(t, Request{URL: r.Dir(), Dir: workdir(t)})
	if res.Commit != r.Head(t) {
		t.Fatalf("commit %s, want %s", res.Commit, r.Head(t))
	}
}

func TestFreshReplacesExistingDirectory(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "a"})
	dir := workdir(t)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "stale.txt"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustAcquire(t, Request{URL: r.FileURL(), Dir: dir, Strategy: StrategyFresh})
	if exists(filepath.Join(dir, "stale.txt")) {
		t.Fatal("fresh strategy kept a file of the old directory")
	}
	if !exists(filepath.Join(dir, "a.md")) {
		t.Fatal("clone content missing")
	}
}

func TestShallowDepthOneVersusFullHistory(t *testing.T) {
	r := repoWithHistory(t, 5)
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{})
	httpURL := srv.Add(t, "docs", r)
	for _, c := range []struct {
		name, url string
		depth     int
		want      int
	}{
		{"file depth 1", r.FileURL(), 1, 1},
		{"file full", r.FileURL(), 0, 5},
		{"http depth 1", httpURL, 1, 1},
		{"http depth 2", httpURL, 2, 2},
		{"http full", httpURL, 0, 5},
	} {
		dir := workdir(t)
		res := mustAcquire(t, Request{URL: c.url, Dir: dir, Depth: c.depth})
		if got := commitCount(t, dir); got != c.want {
			t.Errorf("%s: %d commits, want %d", c.name, got, c.want)
		}
		if res.Commit != r.Head(t) {
			t.Errorf("%s: commit %s, want %s", c.name, res.Commit, r.Head(t))
		}
	}
}

func TestCloneOfTagChecksOutTaggedCommit(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "v1"})
	tagged := r.Head(t)
	r.Tag(t, "v1.0", true)
	r.Tag(t, "light", false)
	r.Commit(t, map[string]string{"a.md": "v2"}, "after the tag")
	url := gittest.NewHTTPServer(t, gittest.HTTPOptions{}).Add(t, "docs", r)
	for _, branch := range []string{"v1.0", "refs/tags/v1.0", "light"} {
		dir := workdir(t)
		res := mustAcquire(t, Request{URL: url, Branch: branch, Dir: dir, Depth: 1})
		if res.Commit != tagged || gitHead(t, dir) != tagged {
			t.Errorf("%s: checked out %s (git says %s), want %s", branch, res.Commit, gitHead(t, dir), tagged)
		}
		if !strings.HasPrefix(res.Ref, "refs/tags/") {
			t.Errorf("%s: ref %q is not a tag", branch, res.Ref)
		}
		if got := readFile(t, filepath.Join(dir, "a.md")); got != "v1" {
			t.Errorf("%s: a.md = %q", branch, got)
		}
	}
}

func TestDefaultBranchResolvedFromRemoteHead(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "main"})
	r.Git(t, "checkout", "-q", "-b", "develop")
	developHead := r.Commit(t, map[string]string{"a.md": "develop"}, "develop work")
	httpURL := gittest.NewHTTPServer(t, gittest.HTTPOptions{}).Add(t, "docs", r)
	for _, url := range []string{r.FileURL(), httpURL} {
		dir := workdir(t)
		res := mustAcquire(t, Request{URL: url, Dir: dir, Depth: 1})
		if res.Branch != "develop" || res.Commit != developHead {
			t.Errorf("%s: got %s@%s, want develop@%s", url, res.Branch, res.Commit, developHead)
		}
		if got := gittest.Git(t, dir, "symbolic-ref", "--short", "HEAD"); got != "develop" {
			t.Errorf("%s: workspace on %q, want develop", url, got)
		}
	}
}

func TestExplicitBranch(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "main"})
	r.Git(t, "checkout", "-q", "-b", "release")
	releaseHead := r.Commit(t, map[string]string{"a.md": "release"}, "release work")
	r.Git(t, "checkout", "-q", "main")
	dir := workdir(t)
	res := mustAcquire(t, Request{URL: r.FileURL(), Branch: "release", Dir: dir, Depth: 1})
	if res.Commit != releaseHead || res.Branch != "release" {
		t.Fatalf("got %+v, want release@%s", res, releaseHead)
	}
	if got := readFile(t, filepath.Join(dir, "a.md")); got != "release" {
		t.Fatalf("a.md = %q", got)
	}
}

func TestMissingBranchIsNotRetried(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "a"})
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{})
	url := srv.Add(t, "docs", r)
	sleeps := &sleepRecorder{}
	dir := workdir(t)
	gerr := acquireError(t, Request{URL: url, Branch: "nope", Dir: dir}, RetryPolicy{MaxRetries: 3, Initial: 1, Sleep: sleeps.Sleep})
	expectCode(t, gerr, CodeBranchNotFound, 1)
	if !strings.Contains(gerr.Error(), `"nope"`) {
		t.Fatalf("error does not name the branch: %v", gerr)
	}
	if gerr.Transient || len(sleeps.Delays()) != 0 {
		t.Fatalf("missing branch was treated as transient: %+v, sleeps %v", gerr, sleeps.Delays())
	}
	if exists(dir) {
		t.Fatal("a failed clone left the target directory behind")
	}
}

func TestEmptyRemoteIsBranchNotFound(t *testing.T) {
	empty := t.TempDir()
	gittest.Git(t, empty, "init", "-q", "--bare", "-b", "main")
	gerr := acquireError(t, Request{URL: "file://" + empty, Dir: workdir(t)}, noRetry())
	expectCode(t, gerr, CodeBranchNotFound, 1)
}

func TestMissingRepositoryIsNotFound(t *testing.T) {
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{})
	for _, url := range []string{srv.URL() + "/missing.git", "file://" + filepath.Join(t.TempDir(), "missing")} {
		gerr := acquireError(t, Request{URL: url, Dir: workdir(t)}, RetryPolicy{MaxRetries: 2, Sleep: (&sleepRecorder{}).Sleep})
		expectCode(t, gerr, CodeNotFound, 1)
	}
}
