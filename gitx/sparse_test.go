package gitx

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/gittest"
)

// docsRepo is a repository with documentation, code, a large "generated"
// folder and a README the documentation links to.
func docsRepo(t *testing.T) *gittest.Repo {
	t.Helper()
	files := map[string]string{
		"README.md":          "# Readme",
		"docs/index.md":      "# Home",
		"docs/guide/use.md":  "# Use",
		"src/main.go":        "package main",
		"assets/logo.svg":    "<svg/>",
		"vendor/lib/lib.txt": "vendored",
	}
	for i := range 50 {
		files["generated/file-"+strings.Repeat("x", i%3)+string(rune('a'+i%26))+string(rune('a'+i/26))+".txt"] = "generated"
	}
	r := gittest.NewRepo(t, files)
	if err := os.Symlink("../README.md", filepath.Join(r.Dir(), "docs", "readme.md")); err != nil {
		t.Fatal(err)
	}
	r.Commit(t, nil, "link the readme into the docs")
	return r
}

// partialServer serves r over smart HTTP with partial clones allowed, as
// GitHub, GitLab and Forgejo do.
func partialServer(t *testing.T, r *gittest.Repo) string {
	t.Helper()
	r.Git(t, "config", "uploadpack.allowFilter", "true")
	return gittest.NewHTTPServer(t, gittest.HTTPOptions{}).Add(t, "docs", r)
}

// blobOf is the blob hash of path at HEAD of r.
func blobOf(t *testing.T, r *gittest.Repo, path string) plumbing.Hash {
	t.Helper()
	return plumbing.NewHash(r.Git(t, "rev-parse", "HEAD:"+path))
}

// stored reports whether the workspace's object store holds h.
func stored(t *testing.T, dir string, h plumbing.Hash) bool {
	t.Helper()
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	return repo.Storer.HasEncodedObject(h) == nil
}

func docsOnly() *Sparse { return &Sparse{Paths: []string{"docs"}} }

func TestSparsePartialCloneFetchesOnlyTheDocumentation(t *testing.T) {
	r := docsRepo(t)
	url := partialServer(t, r)
	dir := workdir(t)
	res := mustAcquire(t, Request{URL: url, Dir: dir, Depth: 1, Sparse: docsOnly()})
	if !res.Partial || res.Commit != r.Head(t) {
		t.Fatalf("result %+v, want a partial clone at %s", res, r.Head(t))
	}
	// docs/index.md, docs/guide/use.md, the link, and README.md it points
	// to: trees, then the documentation's blobs, then the link's target.
	if res.Files != 4 || res.Requests != 3 {
		t.Fatalf("files %d, pack requests %d; want 4 files in 3 requests", res.Files, res.Requests)
	}
	for _, p := range []string{"docs/index.md", "docs/guide/use.md", "README.md"} {
		if !exists(filepath.Join(dir, p)) {
			t.Errorf("%s missing from the checkout", p)
		}
	}
	if got := readFile(t, filepath.Join(dir, "docs/readme.md")); got != "# Readme" {
		t.Errorf("docs/readme.md reads %q through its link, want the README", got)
	}
	for _, p := range []string{"src", "generated", "assets", "vendor"} {
		if exists(filepath.Join(dir, p)) {
			t.Errorf("%s was checked out; only the documentation should be", p)
		}
	}
	if stored(t, dir, blobOf(t, r, "src/main.go")) {
		t.Error("the blob of src/main.go was downloaded; a partial clone must not fetch it")
	}
	if !stored(t, dir, blobOf(t, r, "docs/index.md")) {
		t.Error("the blob of docs/index.md is not stored")
	}
	if gitHead(t, dir) != r.Head(t) {
		t.Error("the git command line disagrees about HEAD")
	}

	// Without links to follow: trees, then blobs.
	res = mustAcquire(t, Request{URL: url, Dir: workdir(t), Depth: 1, Sparse: &Sparse{Paths: []string{"docs/guide"}}})
	if !res.Partial || res.Files != 1 || res.Requests != 2 {
		t.Fatalf("docs/guide: %+v, want 1 file in 2 requests", res)
	}
}

func TestSparseWithoutPartialCloneSupportFetchesEverythingButChecksOutDocs(t *testing.T) {
	r := docsRepo(t) // the server does not allow filters
	url := gittest.NewHTTPServer(t, gittest.HTTPOptions{}).Add(t, "docs", r)
	dir := workdir(t)
	res := mustAcquire(t, Request{URL: url, Dir: dir, Depth: 1, Sparse: docsOnly()})
	if res.Partial || res.Files != 4 || res.Requests != 1 {
		t.Fatalf("result %+v, want a whole fetch in 1 request and 4 files checked out", res)
	}
	if exists(filepath.Join(dir, "src")) || !exists(filepath.Join(dir, "docs/index.md")) {
		t.Fatal("the checkout is not limited to the documentation")
	}
	if !stored(t, dir, blobOf(t, r, "src/main.go")) {
		t.Error("a whole fetch should hold every blob")
	}
}

func TestSparseOverStatefulTransports(t *testing.T) {
	r := docsRepo(t)
	r.Git(t, "config", "uploadpack.allowFilter", "true")
	// file:// and SSH talk to one upload-pack that refuses blobs asked for
	// by hash unless allowed: no partial clone, but still a sparse checkout.
	res := mustAcquire(t, Request{URL: r.FileURL(), Dir: workdir(t), Sparse: docsOnly()})
	if res.Partial || res.Files != 4 {
		t.Fatalf("file:// without allowReachableSHA1InWant: %+v, want a whole fetch, 4 files", res)
	}
	r.Git(t, "config", "uploadpack.allowReachableSHA1InWant", "true")
	dir := workdir(t)
	res = mustAcquire(t, Request{URL: r.FileURL(), Dir: dir, Sparse: docsOnly()})
	if !res.Partial || res.Files != 4 || stored(t, dir, blobOf(t, r, "src/main.go")) {
		t.Fatalf("file:// with allowReachableSHA1InWant: %+v, want a partial clone", res)
	}

	srv := gittest.NewSSHServer(t, t.TempDir())
	sshURL := srv.Add(t, "docs", r)
	known := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(known, []byte(srv.HostKeyLine()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir = workdir(t)
	res = mustAcquire(t, Request{URL: sshURL, Dir: dir, Depth: 1, Sparse: docsOnly(), KnownHostsPath: known,
		Auth: config.Auth{Type: config.AuthSSH, KeyPath: srv.ClientKeyPath()}})
	if !res.Partial || res.Files != 4 || res.Requests != 3 || stored(t, dir, blobOf(t, r, "src/main.go")) {
		t.Fatalf("ssh: %+v, want a partial clone in 3 requests", res)
	}
}

func TestPartialCloneFallsBackWhenBlobsAreRefused(t *testing.T) {
	r := docsRepo(t)
	r.Git(t, "config", "uploadpack.allowFilter", "true")
	dir := workdir(t)
	// Force the partial path against a file:// upload-pack that refuses
	// blobs by hash: the acquisition must still succeed, fetching whole.
	req := Request{URL: r.FileURL(), Dir: dir, Sparse: docsOnly()}
	if err := req.validate(); err != nil {
		t.Fatal(err)
	}
	rem, err := newRemote(req.URL, req.Auth, req.hostKeys())
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	sess, gerr := openSession(ctx, ctx, rem)
	if gerr != nil {
		t.Fatal(gerr)
	}
	defer sess.close()
	refs, _ := sess.listing()
	ref, gerr := pickRef(refs, rem, "")
	if gerr != nil {
		t.Fatal(gerr)
	}
	op := &operation{parent: ctx, ctx: ctx, req: req, rem: rem, ref: ref, sess: sess, partial: true}
	res, gerr := op.freshClone()
	if gerr != nil {
		t.Fatalf("fresh clone after refusal: %v", gerr)
	}
	if res.Partial || readFile(t, filepath.Join(dir, "docs/index.md")) != "# Home" {
		t.Fatalf("%+v: want a whole fetch after the refusal, with the docs checked out", res)
	}
}

func TestSparseUpdateFetchesOnlyChangedDocumentation(t *testing.T) {
	r := docsRepo(t)
	url := partialServer(t, r)
	dir := workdir(t)
	req := Request{URL: url, Dir: dir, Depth: 1, Strategy: StrategyUpdate, Sparse: docsOnly()}
	mustAcquire(t, req)

	r.Commit(t, map[string]string{"docs/index.md": "# Home v2", "docs/new.md": "new", "src/main.go": "package main // v2"}, "edit")
	next := r.Remove(t, []string{"docs/guide/use.md"}, "drop the guide")
	res := mustAcquire(t, req)
	if res.Commit != next || !res.Updated || !res.Partial {
		t.Fatalf("update %+v, want a partial update to %s", res, next)
	}
	// index.md and new.md are new content; the link and README are current.
	if res.Written != 2 || res.Files != 4 {
		t.Fatalf("written %d of %d files, want 2 of 4", res.Written, res.Files)
	}
	if readFile(t, filepath.Join(dir, "docs/index.md")) != "# Home v2" || !exists(filepath.Join(dir, "docs/new.md")) {
		t.Fatal("the update's documentation changes are missing")
	}
	if exists(filepath.Join(dir, "docs/guide")) {
		t.Fatal("a removed documentation folder is still in the checkout")
	}
	if stored(t, dir, blobOf(t, r, "src/main.go")) {
		t.Fatal("the update downloaded a changed file outside the documentation")
	}
}

func TestSparseUpdateOfAWholeCheckoutLeavesOnlyTheDocumentation(t *testing.T) {
	r := docsRepo(t)
	url := partialServer(t, r)
	dir := workdir(t)
	mustAcquire(t, Request{URL: url, Dir: dir, Strategy: StrategyUpdate}) // a whole checkout, as before sparse acquisition
	if !exists(filepath.Join(dir, "src/main.go")) {
		t.Fatal("setup: whole checkout expected")
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := mustAcquire(t, Request{URL: url, Dir: dir, Strategy: StrategyUpdate, Sparse: docsOnly()})
	if res.Files != 4 || exists(filepath.Join(dir, "src")) || exists(filepath.Join(dir, "generated")) {
		t.Fatalf("%+v: the tracked files outside the documentation should be gone", res)
	}
	if !exists(filepath.Join(dir, "notes.txt")) {
		t.Fatal("an untracked file was removed without clean_untracked")
	}
}

func TestSparseIncludeAndExclude(t *testing.T) {
	r := docsRepo(t)
	url := partialServer(t, r)
	dir := workdir(t)
	res := mustAcquire(t, Request{URL: url, Dir: dir, Sparse: &Sparse{
		Paths: []string{"docs", "vendor/lib"}, Include: []string{"assets", "*.md"}, Exclude: []string{"vendor"},
	}})
	if !exists(filepath.Join(dir, "assets/logo.svg")) || !exists(filepath.Join(dir, "README.md")) {
		t.Fatalf("%+v: entries named by Include are missing", res)
	}
	if exists(filepath.Join(dir, "vendor")) {
		t.Fatal("an excluded top-level entry was checked out")
	}
	res = mustAcquire(t, Request{URL: url, Dir: workdir(t), Sparse: &Sparse{Paths: []string{"docs"}, Exclude: []string{"README.md"}}})
	if res.Files != 3 {
		t.Fatalf("files %d; an excluded link target must not be checked out (want 3)", res.Files)
	}
	res = mustAcquire(t, Request{URL: url, Dir: workdir(t), Sparse: &Sparse{Paths: []string{"."}}})
	if res.Partial || res.Files != 57 {
		t.Fatalf("paths [.]: %+v, want the whole repository (57 files)", res)
	}
}

// hostileRepo commits a tree the git command line would never make: a
// .git entry at the top, a link and a directory with the same name, and a
// ".." entry.
func hostileRepo(t *testing.T, outside string) *gittest.Repo {
	t.Helper()
	r := gittest.NewRepo(t, map[string]string{"docs/index.md": "# Home"})
	hashObject := func(kind string, data []byte) string {
		t.Helper()
		path := filepath.Join(t.TempDir(), "object")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return r.Git(t, "hash-object", "-w", "--literally", "-t", kind, path)
	}
	tree := func(entries ...[3]string) string {
		var b []byte
		for _, e := range entries {
			b = append(b, []byte(e[0]+" "+e[1]+"\x00")...)
			h := plumbing.NewHash(e[2])
			b = append(b, h[:]...)
		}
		return hashObject("tree", b)
	}
	pwned := hashObject("blob", []byte("pwned"))
	link := hashObject("blob", []byte(outside))
	index := hashObject("blob", []byte("# Home"))
	inner := tree([3]string{"100644", "pwned", pwned})
	docs := tree(
		[3]string{"40000", "..", inner},
		[3]string{"40000", ".git", inner},
		[3]string{"120000", "evil", link},
		[3]string{"40000", "evil", inner},
		[3]string{"100644", "index.md", index},
	)
	hooks := tree([3]string{"100755", "post-checkout", pwned})
	root := tree([3]string{"40000", ".git", tree([3]string{"40000", "hooks", hooks})}, [3]string{"40000", "docs", docs})
	commit := r.Git(t, "commit-tree", "-m", "hostile", root)
	r.Git(t, "update-ref", "refs/heads/main", commit)
	return r
}

func TestCheckoutOfAHostileTreeStaysInTheWorkspace(t *testing.T) {
	outside := t.TempDir()
	r := hostileRepo(t, outside)
	for _, sp := range []*Sparse{nil, docsOnly()} {
		dir := workdir(t)
		res := mustAcquire(t, Request{URL: r.FileURL(), Dir: dir, Sparse: sp})
		if entries, _ := os.ReadDir(outside); len(entries) != 0 {
			t.Fatalf("sparse %v: the checkout wrote outside the workspace: %v", sp, entries)
		}
		if exists(filepath.Join(dir, ".git", "hooks", "post-checkout")) || exists(filepath.Join(dir, "docs", ".git")) {
			t.Fatalf("sparse %v: a .git entry of the tree was written", sp)
		}
		if fi, err := os.Lstat(filepath.Join(dir, "docs", "evil")); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			t.Fatalf("sparse %v: the link that clashes with a directory was written", sp)
		}
		if readFile(t, filepath.Join(dir, "docs/index.md")) != "# Home" || res.Files != 2 {
			t.Fatalf("sparse %v: %+v, want docs/index.md and docs/evil/pwned only", sp, res)
		}
	}
}

func TestPartialCloneWithTokenAuthAndRetries(t *testing.T) {
	r := docsRepo(t)
	r.Git(t, "config", "uploadpack.allowFilter", "true")
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{Token: "tok-9f8e7d", FailFirst: 1})
	url := srv.Add(t, "docs", r)
	retry := RetryPolicy{MaxRetries: 2, Sleep: (&sleepRecorder{}).Sleep}
	dir := workdir(t)
	res, err := Acquire(context.Background(), Request{URL: url, Dir: dir, Depth: 1, Sparse: docsOnly(),
		Auth: config.Auth{Type: config.AuthToken, Token: "tok-9f8e7d"}}, retry)
	if err != nil || !res.Partial || res.Attempts != 2 || res.Files != 4 {
		t.Fatalf("%+v %v: want a partial clone on the second attempt", res, err)
	}
	if strings.Contains(readFile(t, filepath.Join(dir, ".git", "config")), "tok-9f8e7d") {
		t.Fatal("the token was written to .git/config")
	}
}
