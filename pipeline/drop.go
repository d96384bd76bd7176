package pipeline

import (
	"context"

	"github.com/docweave/docweave/events"
)

// dropBuildsBefore acknowledges, without handling, the messages of builds
// whose IDs sort before epoch (builds started before it): the work a
// killed predecessor left half done is dropped, not finished late (see
// Runner.DropBuildsBefore and RedeliverNow). The delivery's outcome is
// then OutcomeDropped. A message with no build ID (one that could not be
// decoded) is passed on, to be refused.
func dropBuildsBefore(epoch string) Middleware {
	return func(next Handler) Handler {
		return func(ctx context.Context, ev events.Event) ([]events.Event, error) {
			d := deliveryOf(ctx)
			if d.BuildID == "" || d.BuildID >= epoch {
				return next(ctx, ev)
			}
			d.Outcome = OutcomeDropped
			d.log.Info().Msg("message of a build an earlier run of this process left unfinished: dropped")
			return nil, nil
		}
	}
}
