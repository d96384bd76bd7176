package discover

import (
	"testing"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline/stagetest"
)

// TestDiscoverKeepsTheStageContract: a build.requested delivered again
// plans the same clone jobs under the same IDs, and a cancelled discovery
// is handed back.
func TestDiscoverKeepsTheStageContract(t *testing.T) {
	f := newSkipFixture(t)
	req := func(id string) *events.BuildRequested {
		return &events.BuildRequested{Header: events.Header{ID: id, BuildID: id}, Reason: "test"}
	}
	out := stagetest.CheckRedelivery(t, f.stage, req("20261126t200000.000001-a"))
	if kinds(out)[events.SubjectRepoClone] != 2 {
		t.Fatalf("planned %v, want a clone job for each of the 2 repositories", kinds(out))
	}
	stagetest.CheckCancellation(t, f.stage, req("20261126t200000.000002-b"))
}
