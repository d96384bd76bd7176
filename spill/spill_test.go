package spill

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/report"
)

func warnings(n int) []report.Issue {
	out := make([]report.Issue, n)
	for i := range out {
		out[i] = report.Issue{Code: report.CodeLinkUnresolved, Severity: report.SeverityWarning, Path: fmt.Sprintf("page-%d.md", i), Message: "a link to a missing page"}
	}
	return out
}

func TestAShortListTravelsAsItIs(t *testing.T) {
	store, err := artifact.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	l, err := Issues(context.Background(), store, t.TempDir(), warnings(events.MaxInlineIssues))
	if err != nil || !l.Whole() || len(l.Issues) != events.MaxInlineIssues || l.Total() != events.MaxInlineIssues {
		t.Fatalf("list of %d: %+v (%v)", events.MaxInlineIssues, l, err)
	}
}

func TestALongListIsStoredWholeAndPreviewedErrorsFirst(t *testing.T) {
	ctx := context.Background()
	store, err := artifact.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	issues := append(warnings(5000), report.Issue{Code: report.CodeRenderFailed, Severity: report.SeverityError, Message: "the unit failed"})
	l, err := Issues(ctx, store, t.TempDir(), issues)
	if err != nil {
		t.Fatal(err)
	}
	if l.Whole() || l.Total() != 5001 || len(l.Issues) != events.MaxInlineIssues || l.Issues[0].Code != report.CodeRenderFailed {
		t.Fatalf("a list of 5,001 became %d inline, total %d, ref %q, first %s", len(l.Issues), l.Total(), l.IssuesRef, l.Issues[0].Code)
	}
	back, err := LoadIssues(ctx, store, t.TempDir(), l)
	if err != nil || len(back) != 5001 || back[4999].Path != "page-4999.md" || back[5000].Code != report.CodeRenderFailed {
		t.Fatalf("read back %d issues (%v)", len(back), err)
	}
	// A list whose artifact is gone says so; it is not read as empty.
	l.IssuesRef = "sha256:" + strings.Repeat("0", 64)
	if _, err := LoadIssues(ctx, store, t.TempDir(), l); !errors.Is(err, artifact.ErrNotFound) {
		t.Fatalf("a missing list read as %v", err)
	}
}

func TestBoundKeepsASiteMessageSmallWhateverItsIssues(t *testing.T) {
	store, err := artifact.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ev := &events.SiteRendered{Header: events.Header{ID: "site.rendered:b", BuildID: "b"}, IssueList: events.Issued(warnings(10000)...)}
	if err := events.CheckSize(ev); err == nil {
		t.Fatal("10,000 issues fit a message: the test proves nothing")
	}
	if err := Bound(context.Background(), store, t.TempDir(), ev); err != nil {
		t.Fatal(err)
	}
	data, err := events.Encode(ev)
	if err != nil || len(data) > 8<<10 {
		t.Fatalf("bounded message: %d bytes (%v)", len(data), err)
	}
	if ev.Total() != 10000 {
		t.Fatalf("total %d", ev.Total())
	}
}

// A list that grows with the site's units is stored whole and read back
// only with the number of entries its message announced.
func TestAListTravelsByReferenceAndIsCounted(t *testing.T) {
	ctx := context.Background()
	store, err := artifact.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	units := make([]events.UnitOutcome, 5000)
	for i := range units {
		units[i] = events.UnitOutcome{Key: fmt.Sprintf("repo-%04d", i), Outcome: events.UnitOutcomeRendered}
	}
	ref, err := PutList(ctx, store, t.TempDir(), units)
	if err != nil {
		t.Fatal(err)
	}
	back, err := LoadList[events.UnitOutcome](ctx, store, t.TempDir(), ref, len(units))
	if err != nil || len(back) != 5000 || back[4999].Key != "repo-4999" {
		t.Fatalf("read back %d units (%v)", len(back), err)
	}
	if _, err := LoadList[events.UnitOutcome](ctx, store, t.TempDir(), ref, 4999); err == nil {
		t.Fatal("a list read with the wrong count")
	}
	empty, err := PutList[events.UnitOutcome](ctx, store, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := LoadList[events.UnitOutcome](ctx, store, t.TempDir(), empty, 0); err != nil || len(got) != 0 {
		t.Fatalf("empty list: %v %v", got, err)
	}
}
