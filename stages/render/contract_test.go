package render

import (
	"testing"

	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/pipeline/stagetest"
)

// TestRenderKeepsTheStageContract: a unit.render delivered again gives the
// same unit.rendered, and a cancelled render is handed back.
func TestRenderKeepsTheStageContract(t *testing.T) {
	store, err := artifact.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	st := newStage(t, store)
	tree := putTree(t, store, map[string]string{"index.md": "# API\n\nHello.\n", "guide.md": "# Guide\n"})
	stagetest.CheckRedelivery(t, st, job(t, store, "b1", tree))
	// A fresh store and stage, so the cancelled delivery finds nothing
	// rendered before it.
	fresh, err := artifact.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	st = newStage(t, fresh)
	tree = putTree(t, fresh, map[string]string{"index.md": "# API\n"})
	stagetest.CheckCancellation(t, st, job(t, fresh, "b2", tree))
}
