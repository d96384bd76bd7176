package direct

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/forgetest"
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/report"
)

// TestDirectBuildDiscoversRepositoriesFromAForge: the repositories of a
// GitLab group with documentation are built with the listed one; one that
// leaves the group leaves the site; a group that cannot be listed keeps
// its last repositories and makes the build partial.
func TestDirectBuildDiscoversRepositoriesFromAForge(t *testing.T) {
	git := gittest.NewHTTPServer(t, gittest.HTTPOptions{Token: "secret-token"})
	forge := forgetest.New(t, forgetest.GitLab, forgetest.Options{Token: "secret-token"})
	for _, name := range []string{"api", "guide"} {
		r := gittest.NewRepo(t, map[string]string{"docs/index.md": "---\ntitle: " + name + "\n---\nAbout " + name + ".\n"})
		forge.Add(forgetest.Repo{Owner: "platform", Name: name, Paths: []string{"docs"}, CloneURL: git.Add(t, "platform/"+name, r)})
	}
	forge.Add(forgetest.Repo{Owner: "platform", Name: "tools", Paths: []string{"src"}, CloneURL: git.URL() + "/platform/tools.git"})

	cfg := testConfig(t)
	cfg.Forges = []config.Forge{{
		Type: config.ForgeGitLab, BaseURL: forge.URL(), Organizations: []string{"platform"},
		Auth: config.Auth{Type: config.AuthToken, Token: "secret-token"},
	}}
	build := func() *report.Report {
		t.Helper()
		rep, err := Build(context.Background(), cfg, Options{Log: zerolog.Nop()})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	page := func(contentPath string) string {
		return filepath.Join(cfg.Output.Directory, "public", "docs", contentPath, "index.html")
	}

	rep := build()
	if rep.ExitCode() != 0 || rep.ClonedRepositories != 3 || len(rep.Forges) != 1 || rep.Forges[0].Repositories != 2 {
		t.Fatalf("first build: exit %d, cloned %d, forges %+v; want 3 repositories, 2 from the forge", rep.ExitCode(), rep.ClonedRepositories, rep.Forges)
	}
	// Two forges occur (local and the git server's host): namespaced paths.
	byName := map[string]report.Repository{}
	for _, r := range rep.Repositories {
		byName[r.Name] = r
	}
	api, ok := byName["api"]
	if !ok || api.Forge == "local" || api.ContentPath != api.Forge+"/api" {
		t.Fatalf("api entry %+v, want a namespaced content path", api)
	}
	if _, err := os.Stat(page(api.ContentPath)); err != nil {
		t.Fatalf("the discovered repository's page is not on the site: %v", err)
	}

	forge.Remove("platform/api")
	rep = build()
	if rep.ClonedRepositories != 2 || rep.Forges[0].Repositories != 1 {
		t.Fatalf("after removal: cloned %d, want 2", rep.ClonedRepositories)
	}
	if _, err := os.Stat(page(api.ContentPath)); !os.IsNotExist(err) {
		t.Fatalf("a repository that left the forge is still on the site: %v", err)
	}

	forge.FailListings(100)
	rep = build()
	if rep.ExitCode() != 1 || rep.Outcome != report.OutcomePartial || rep.ClonedRepositories != 2 || rep.Forges[0].Status != report.ForgeFailed {
		t.Fatalf("failed listing: exit %d, outcome %s, cloned %d, forges %+v; want partial with the last set kept",
			rep.ExitCode(), rep.Outcome, rep.ClonedRepositories, rep.Forges)
	}
	found := false
	for _, is := range rep.Issues {
		found = found || is.Code == report.CodeForgeListFailed
	}
	if !found {
		t.Fatalf("no %s issue in %+v", report.CodeForgeListFailed, rep.Issues)
	}
}
