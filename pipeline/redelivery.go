package pipeline

import (
	"context"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/events"
)

// noteRedeliveries records a message delivered again in its build's
// state, so the build report shows the repeated work; failing to record
// it does not stop the handler.
func noteRedeliveries(fanIns *buildstate.FanIns) Middleware {
	return func(next Handler) Handler {
		return func(ctx context.Context, ev events.Event) ([]events.Event, error) {
			d := deliveryOf(ctx)
			if d.Attempt > 1 && d.BuildID != "" {
				d.log.Info().Msg("message delivered again")
				if err := fanIns.NoteRedelivery(ctx, d.BuildID, d.Stage); err != nil {
					d.log.Debug().Err(err).Msg("redelivery not recorded")
				}
			}
			return next(ctx, ev)
		}
	}
}
