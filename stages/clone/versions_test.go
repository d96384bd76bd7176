package clone

import (
	"context"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/pipeline"
)

// Each version is its own job: a tag is cloned at its (peeled) commit into
// a checkout of its own, and a broken tag fails alone, named in its issue.
func TestCloneOfVersionsTakesEachRefOnItsOwn(t *testing.T) {
	repo := gittest.NewRepo(t, map[string]string{"docs/index.md": "# one"})
	repo.Tag(t, "v1.0.0", true)
	tagged := repo.Head(t)
	repo.Commit(t, map[string]string{"docs/index.md": "# two", "docs/new.md": "# new"}, "two")
	// A tag that names a blob, not a commit: nothing can be checked out.
	blobID := strings.TrimSpace(repo.Git(t, "rev-parse", "HEAD:docs/index.md"))
	repo.Git(t, "tag", "broken", blobID)
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{})
	url := srv.Add(t, "product", repo)
	st, cfg := newStage(t, config.Repository{Name: "product", URL: url})
	cfg.Build.CloneStrategy = "update"

	versionJob := func(name, ref string, tag bool) *events.RepoClone {
		v := &events.Version{Name: name, Ref: ref, Slug: name, Tag: tag}
		j := &events.RepoClone{Header: events.Header{BuildID: "b1"}, Repository: "product", ContentPath: "product/" + name, Version: v}
		j.ID = "repo.clone:b1:" + j.Key()
		return j
	}
	trees := map[string]string{}
	for _, j := range []*events.RepoClone{versionJob("v1.0.0", "refs/tags/v1.0.0", true), versionJob("main", "refs/heads/main", false)} {
		out, err := st.Handle(context.Background(), j)
		if err != nil {
			t.Fatal(err)
		}
		got := out[0].(*events.RepoCloned)
		if got.Failure != nil || got.Version == nil || got.Version.Name != j.Version.Name || got.Branch != j.Version.Name {
			t.Fatalf("%s: %+v", j.Key(), got)
		}
		if got.ID != "repo.cloned:b1:"+j.Key() || got.ContentPath != j.ContentPath {
			t.Fatalf("%s: id %q content %q", j.Key(), got.ID, got.ContentPath)
		}
		trees[j.Version.Name] = got.Tree
		if j.Version.Name == "v1.0.0" && (got.Commit != tagged || got.DocFiles != 1) {
			t.Fatalf("tag cloned at %s with %d files, want %s with 1", got.Commit, got.DocFiles, tagged)
		}
		if j.Version.Name == "main" && got.DocFiles != 2 {
			t.Fatalf("main has %d files, want 2", got.DocFiles)
		}
	}
	if trees["main"] == trees["v1.0.0"] {
		t.Fatal("two versions with different docs share a tree")
	}
	// The versions' checkouts are separate, so the tag's is still at the tag.
	if has, _ := st.Handle(context.Background(), versionJob("v1.0.0", "refs/tags/v1.0.0", true)); has[0].(*events.RepoCloned).Tree != trees["v1.0.0"] {
		t.Fatal("updating the tag's checkout gave another tree")
	}

	out, err := st.Handle(context.Background(), versionJob("broken", "refs/tags/broken", true))
	if err != nil {
		t.Fatal(err)
	}
	got := out[0].(*events.RepoCloned)
	if got.Failure == nil || got.Failure.Version != "broken" || got.Failure.Repository != "product" {
		t.Fatalf("broken tag: %+v", got)
	}
}

// Versions of one repository clone in parallel: with versioning the
// stage's concurrency is not bounded by the number of repositories.
func TestCloneConcurrencyWithVersioning(t *testing.T) {
	st, cfg := newStage(t, config.Repository{Name: "product", URL: "file:///nowhere"})
	if st.Concurrency != 1 {
		t.Fatalf("without versioning: concurrency %d, want 1 (one repository)", st.Concurrency)
	}
	cfg.Versioning.Enabled = true
	versioned, err := New(pipeline.Deps{Config: cfg, Store: nil, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	if versioned.Concurrency != cfg.Build.CloneConcurrency || versioned.Concurrency < 2 {
		t.Fatalf("with versioning: concurrency %d, want clone_concurrency %d", versioned.Concurrency, cfg.Build.CloneConcurrency)
	}
}
