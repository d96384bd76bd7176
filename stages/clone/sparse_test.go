package clone

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/docstree"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/workspace"
)

func TestSparseForFollowsTheBuildSettings(t *testing.T) {
	repo := config.Repository{Name: "r", Paths: []string{"docs", "site/content"}}
	b := config.Default().Build
	b.PruneAllow, b.PruneDeny = []string{"README*"}, []string{"site"}
	sp := SparseFor(b, repo)
	if sp == nil || !slices.Equal(sp.Paths, repo.Paths) || !slices.Equal(sp.Include, append([]string{"README*"}, docstree.ToolConfigFiles...)) || sp.Exclude != nil {
		t.Fatalf("sparse %+v: want the documentation roots, prune_allow and the tool configuration files, no exclusion without pruning", sp)
	}
	b.PruneNonDocPaths = true
	if sp := SparseFor(b, repo); !slices.Equal(sp.Exclude, b.PruneDeny) {
		t.Fatalf("with prune_non_doc_paths, prune_deny must keep entries out: %+v", sp)
	}
	b.SparseCheckout = false
	if sp := SparseFor(b, repo); sp != nil {
		t.Fatalf("sparse_checkout false: %+v, want the whole repository", sp)
	}
}

// With the default sparse_checkout, a cached checkout (clone_strategy
// update) holds the documentation and what prune_allow names, nothing else,
// and the collected tree is the documentation.
func TestCloneKeepsOnlyTheDocumentationInTheCache(t *testing.T) {
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{})
	repo := gittest.NewRepo(t, map[string]string{
		"docs/index.md": "# Hi", "docs/more/page.md": "p", "src/main.go": "package main", "LICENSE": "MIT",
	})
	repo.Git(t, "config", "uploadpack.allowFilter", "true")
	url := srv.Add(t, "docs", repo)
	st, cfg := newStage(t, config.Repository{Name: "docs", URL: url, Paths: []string{"docs"}})
	cfg.Build.CloneStrategy = "update"
	cfg.Build.PruneAllow = []string{"LICENSE"}
	out, err := st.Handle(context.Background(), job("docs"))
	if err != nil {
		t.Fatal(err)
	}
	got := out[0].(*events.RepoCloned)
	if got.Failure != nil || got.DocFiles != 2 {
		t.Fatalf("cloned %+v, want 2 documentation files", got)
	}
	dir, err := workspace.For(cfg).Dir(workspace.CacheKey(workspace.CheckoutName("docs", "")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "src")); !os.IsNotExist(err) {
		t.Fatalf("src was checked out: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "LICENSE")); err != nil {
		t.Fatalf("the prune_allow entry LICENSE is not in the checkout: %v", err)
	}
}
