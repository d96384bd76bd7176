package clone

import (
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/pipeline/stagetest"
)

// TestCloneKeepsTheStageContract: a repo.clone delivered again (the
// checkout is then already there) gives the same repo.cloned, and a clone
// whose context is cancelled is handed back, not recorded as a failure.
func TestCloneKeepsTheStageContract(t *testing.T) {
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{})
	repo := gittest.NewRepo(t, map[string]string{"docs/index.md": "# Hi", "src/main.go": "package main"})
	url := srv.Add(t, "docs", repo)
	st, _ := newStage(t, config.Repository{Name: "docs", URL: url})
	out := stagetest.CheckRedelivery(t, st, job("docs"))
	if cloned, ok := out[0].(*events.RepoCloned); !ok || cloned.CommitTime.IsZero() {
		t.Errorf("repo.cloned without the commit's time: %+v", out[0])
	}
	fresh, _ := newStage(t, config.Repository{Name: "docs", URL: url})
	stagetest.CheckCancellation(t, fresh, job("docs"))
}
