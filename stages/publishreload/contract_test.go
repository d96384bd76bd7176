package publishreload

import (
	"testing"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/stagetest"
)

// TestPublishReloadKeepsTheStageContract: a site.rendered delivered again
// gives the same site.published, and a cancelled delivery is handed back.
func TestPublishReloadKeepsTheStageContract(t *testing.T) {
	st, err := New(pipeline.Deps{})
	if err != nil {
		t.Fatal(err)
	}
	ev := &events.SiteRendered{Header: events.Header{ID: "site.rendered:b1", BuildID: "b1"}, OK: true, Site: "sha256:s", Pages: 2}
	if out := stagetest.CheckRedelivery(t, st, ev); len(out) != 1 {
		t.Fatalf("%d events, want one site.published", len(out))
	}
	stagetest.CheckCancellation(t, st, ev)
}
