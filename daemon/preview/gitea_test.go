package preview

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/giteatest"
)

// TestCommitStatusOnARealGitea sets a preview's status on a commit of a
// real Gitea and reads it back through Gitea's own API.
func TestCommitStatusOnARealGitea(t *testing.T) {
	g := giteatest.New(t)
	g.CreateOrg(t, "previews")
	g.CreateRepo(t, "previews", "handbook")
	sha := g.Push(t, "previews/handbook", map[string]string{"docs/index.md": "# Handbook\n"}, "docs")

	cfg := config.Default()
	cfg.Repositories = []config.Repository{{Name: "handbook", URL: g.URL + "/previews/handbook.git", Auth: config.Auth{Type: config.AuthToken, Token: g.Token}}}
	st := Status{Repository: "handbook", State: StateReady, URL: "https://docs.example.com/previews/handbook-0123456789/",
		Changes: &Changes{Added: []string{"/docs/handbook/new/"}}, LinksBroken: []BrokenLink{}}
	r := ForgeReporter{Config: &cfg}
	if err := r.Report(context.Background(), ReportTarget{Forge: "forgejo", API: g.URL + "/api/v1", Project: "previews/handbook", Commit: sha}, st); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(g.URL + "/api/v1/repos/previews/handbook/commits/" + sha + "/statuses")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var statuses []struct {
		Status      string `json:"status"`
		TargetURL   string `json:"target_url"`
		Description string `json:"description"`
		Context     string `json:"context"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&statuses); err != nil || len(statuses) != 1 {
		t.Fatalf("Gitea lists %d statuses (%v)", len(statuses), err)
	}
	got := statuses[0]
	if got.Status != "success" || got.TargetURL != st.URL || got.Context != StatusContext || got.Description != "1 page added, 0 changed, 0 removed; 0 links broken" {
		t.Errorf("Gitea's status: %+v", got)
	}
}
