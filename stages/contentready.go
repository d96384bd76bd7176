package stages

import (
	"context"
	"fmt"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/spill"
)

// ContentReady is the message that closes a build's clone join, sent by
// whichever stage records its last unit (discover for a unit reused from
// the saved state, join for one cloned). The units' outcomes are read
// from the join and stored aside: the message carries their reference, so
// it stays small whatever the number of units.
func ContentReady(ctx context.Context, builds *buildstate.FanIns, store artifact.Store, scratch, buildID string) (*events.ContentReady, error) {
	outcomes, err := builds.Outcomes(ctx, buildID)
	if err != nil {
		return nil, err
	}
	ref, err := spill.PutList(ctx, store, scratch, outcomes)
	if err != nil {
		return nil, fmt.Errorf("store the outcomes of build %s: %w", buildID, err)
	}
	return &events.ContentReady{
		Header:      events.Header{ID: "build.content_ready:" + buildID, BuildID: buildID},
		OutcomesRef: ref, Units: len(outcomes),
	}, nil
}
