package report

import (
	"fmt"
	"strings"
	"testing"
)

func TestExitCodeAndOutcome(t *testing.T) {
	cases := []struct {
		name     string
		rendered bool
		failed   int
		code     int
		outcome  string
	}{
		{"all good", true, 0, 0, OutcomeSuccess},
		{"some repositories failed", true, 2, 1, OutcomePartial},
		{"no site", false, 0, 2, OutcomeFailed},
		{"no site and failures", false, 3, 2, OutcomeFailed},
	}
	for _, c := range cases {
		b := Report{StaticRendered: c.rendered, FailedRepositories: c.failed}
		b.DecideOutcome()
		if got := b.ExitCode(); got != c.code {
			t.Errorf("%s: exit code %d, want %d", c.name, got, c.code)
		}
		if b.Outcome != c.outcome {
			t.Errorf("%s: outcome %q, want %q", c.name, b.Outcome, c.outcome)
		}
	}
}

func TestAFailedForgeMakesTheBuildPartial(t *testing.T) {
	b := Report{StaticRendered: true, Forges: []Forge{{Name: "github", Status: ForgeOK}, {Name: "gitlab", Status: ForgeFailed}}}
	b.DecideOutcome()
	if b.FailedForges() != 1 || b.ExitCode() != 1 || b.Outcome != OutcomePartial {
		t.Fatalf("failed forges %d, exit %d, outcome %s; want 1, 1, partial", b.FailedForges(), b.ExitCode(), b.Outcome)
	}
	b.Forges[1].Status = ForgeOK
	b.DecideOutcome()
	if b.ExitCode() != 0 {
		t.Fatalf("exit %d with every forge listed", b.ExitCode())
	}
}

// A repository that gave no page makes the build partial: a path that
// matches nothing must not pass for "success — 0 pages" (issue 15).
func TestARepositoryWithoutPagesMakesTheBuildPartial(t *testing.T) {
	b := Report{StaticRendered: true, EmptyRepositories: 1}
	b.DecideOutcome()
	if b.ExitCode() != 1 || b.Outcome != OutcomePartial {
		t.Errorf("exit %d, outcome %q; want 1, partial", b.ExitCode(), b.Outcome)
	}
}

// A report of many repositories is carried with at most
// MaxCarriedRepositories entries, the failed ones kept whatever their
// name, the rest counted; the report itself is not changed.
func TestBoundedKeepsProblemRepositoriesFirst(t *testing.T) {
	var rep Report
	for i := range 250 {
		status := "ok"
		if i%100 == 99 {
			status = "failed"
		}
		rep.Repositories = append(rep.Repositories, Repository{Name: fmt.Sprintf("repo-%03d", i), Status: status})
		rep.Versions = append(rep.Versions, RepositoryVersions{Repository: fmt.Sprintf("repo-%03d", i)})
	}
	got := rep.Bounded()
	if len(got.Repositories) != MaxCarriedRepositories || got.RepositoriesOmitted != 150 || len(got.Versions) != MaxCarriedRepositories {
		t.Fatalf("carried %d repositories, %d versions, %d omitted", len(got.Repositories), len(got.Versions), got.RepositoriesOmitted)
	}
	failed := 0
	for i, r := range got.Repositories {
		if r.Status == "failed" {
			failed++
		}
		if i > 0 && got.Repositories[i-1].Name > r.Name {
			t.Fatalf("carried repositories out of order at %d", i)
		}
	}
	if failed != 2 || len(rep.Repositories) != 250 || rep.RepositoriesOmitted != 0 {
		t.Fatalf("%d failed repositories carried (want 2); the report has %d", failed, len(rep.Repositories))
	}
}

// The note names the stages that run now: prune became join (and the
// render runs per unit, in parallel).
func TestStageDurationsNoteNamesTodaysStages(t *testing.T) {
	for _, gone := range []string{"prune", "fingerprint"} {
		if strings.Contains(StageDurationsNoteText, gone) {
			t.Errorf("the note names the removed stage %s: %s", gone, StageDurationsNoteText)
		}
	}
}
