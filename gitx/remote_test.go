package gitx

import (
	"context"
	"errors"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/gittest"
)

func TestRemoteHead(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "a"})
	r.Branch(t, "release")
	r.Tag(t, "v1", true)
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{Token: "secret-token"})
	url := srv.Add(t, "docs", r)
	auth := config.Auth{Type: config.AuthToken, Token: "secret-token"}
	head := r.Head(t)

	for _, c := range []struct{ branch, wantBranch string }{
		{"", "main"}, {"release", "release"}, {"v1", "v1"}, {"refs/heads/release", "release"},
	} {
		commit, branch, err := RemoteHead(context.Background(), url, c.branch, auth)
		if err != nil || commit != head || branch != c.wantBranch {
			t.Errorf("RemoteHead(%q) = %s %s %v, want %s %s", c.branch, commit, branch, err, head, c.wantBranch)
		}
	}

	// It follows new commits without any clone.
	next := r.Commit(t, map[string]string{"a.md": "b"}, "b")
	if commit, _, err := RemoteHead(context.Background(), url, "", auth); err != nil || commit != next {
		t.Fatalf("after a commit: %s %v, want %s", commit, err, next)
	}

	_, _, err := RemoteHead(context.Background(), url, "missing", auth)
	var gerr *Error
	if !errors.As(err, &gerr) || gerr.Code != CodeBranchNotFound || gerr.Attempts != 1 {
		t.Fatalf("missing branch: %v", err)
	}
	_, _, err = RemoteHead(context.Background(), url, "", config.Auth{})
	if !errors.As(err, &gerr) || gerr.Code != CodeAuth {
		t.Fatalf("no credentials: %v", err)
	}
}

func TestRemoteHeadDefaultBranchNotMain(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "a"})
	r.Git(t, "checkout", "-q", "-b", "trunk")
	want := r.Commit(t, nil, "trunk only")
	commit, branch, err := RemoteHead(context.Background(), r.FileURL(), "", config.Auth{})
	if err != nil || commit != want || branch != "trunk" {
		t.Fatalf("RemoteHead = %s %s %v, want %s trunk", commit, branch, err, want)
	}
}

func ref(name, hash string) *plumbing.Reference {
	return plumbing.NewReferenceFromStrings(name, hash)
}

func TestResolveRefWithoutSymref(t *testing.T) {
	a := "1111111111111111111111111111111111111111"
	b := "2222222222222222222222222222222222222222"
	refs := []*plumbing.Reference{
		ref("HEAD", b),
		ref("refs/heads/alpha", b),
		ref("refs/heads/master", b),
		ref("refs/heads/other", a),
	}
	got, err := resolveRef(listingOf(refs), "")
	if err != nil || got.name != "refs/heads/master" || got.commit.String() != b {
		t.Fatalf("guess without symref = %+v %v, want master (preferred over alphabetical)", got, err)
	}
	refs = append(refs, ref("refs/heads/main", b))
	if got, _ := resolveRef(listingOf(refs), ""); got.name != "refs/heads/main" {
		t.Fatalf("main should win the guess, got %s", got.name)
	}
	if _, err := resolveRef(listingOf([]*plumbing.Reference{ref("HEAD", "3333333333333333333333333333333333333333"), ref("refs/heads/x", a)}), ""); err == nil {
		t.Fatal("a HEAD matching no branch must be an error")
	}
	if _, err := resolveRef(listingOf([]*plumbing.Reference{ref("refs/heads/x", a)}), ""); err == nil {
		t.Fatal("no HEAD must be an error")
	}
}

func TestResolveRefPeelsAnnotatedTagsAndPrefersBranches(t *testing.T) {
	tagObj := "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	commit := "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	branch := "cccccccccccccccccccccccccccccccccccccccc"
	refs := []*plumbing.Reference{
		ref("refs/tags/v1", tagObj),
		ref("refs/tags/v1^{}", commit),
		ref("refs/tags/same", tagObj),
		ref("refs/heads/same", branch),
	}
	got, err := resolveRef(listingOf(refs), "v1")
	if err != nil || got.commit.String() != commit || got.name != "refs/tags/v1" {
		t.Fatalf("v1 = %+v %v, want peeled commit", got, err)
	}
	got, _ = resolveRef(listingOf(refs), "same")
	if got.name != "refs/heads/same" {
		t.Fatalf("a branch must win over a tag of the same name, got %s", got.name)
	}
	got, _ = resolveRef(listingOf(refs), "refs/tags/same")
	if got.name != "refs/tags/same" {
		t.Fatalf("a full name is literal, got %s", got.name)
	}
}
