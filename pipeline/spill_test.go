package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/report"
)

// TestTheRunnerBoundsWhatAStageReturns: a stage that returns thousands of
// issues has them stored aside by the middleware before anything is
// published, and a message that is too large even so is a permanent
// failure, not a retry (the broker would refuse it again).
func TestTheRunnerBoundsWhatAStageReturns(t *testing.T) {
	store, err := artifact.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	many := make([]report.Issue, 5000)
	for i := range many {
		many[i] = report.Issue{Code: report.CodeLinkUnresolved, Severity: report.SeverityWarning, Message: "a link to a missing page"}
	}
	stage := func(context.Context, events.Event) ([]events.Event, error) {
		return []events.Event{&events.RepoCloned{Header: events.Header{ID: "repo.cloned:b:r", BuildID: "b"}, IssueList: events.Issued(many...)}}, nil
	}
	out, err := boundIssues(store, t.TempDir(), stage)(context.Background(), &events.BuildRequested{})
	if err != nil {
		t.Fatal(err)
	}
	cloned := out[0].(*events.RepoCloned)
	if cloned.Whole() || cloned.Total() != 5000 || len(cloned.Issues) != events.MaxInlineIssues {
		t.Fatalf("returned list: %d inline, total %d, whole %v", len(cloned.Issues), cloned.Total(), cloned.Whole())
	}

	huge := func(context.Context, events.Event) ([]events.Event, error) {
		return []events.Event{&events.BuildRequested{Header: events.Header{ID: "build.requested:b", BuildID: "b"}, Reason: strings.Repeat("x", events.MaxEventBytes)}}, nil
	}
	_, err = boundIssues(store, t.TempDir(), huge)(context.Background(), &events.BuildRequested{})
	if err == nil || !IsPermanent(err) {
		t.Fatalf("a message over %d bytes: %v, want a permanent error", events.MaxEventBytes, err)
	}
}
