package discover

import (
	"testing"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/pipeline/stagetest"
)

// testBuckets opens what the discover stage needs from a real embedded
// NATS server with its streams and buckets provisioned: the builds and
// state buckets, and a local artifact store.
func testBuckets(t *testing.T) (*buildstate.FanIns, *buildstate.States, *artifact.Local) {
	t.Helper()
	builds, states := stagetest.Buckets(t)
	store, err := artifact.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return builds, states, store
}
