package pipeline

import (
	"context"
	"time"

	"github.com/docweave/docweave/events"
)

// observe tells fn about every delivery once the runner has settled it
// (acknowledged, handed back, terminated or dropped), with its outcome and
// how long it took from receipt, for metrics and tests. It must be the
// outermost middleware, around the runner's settling, and fn must be fast.
func observe(fn func(Delivery)) Middleware {
	return func(next Handler) Handler {
		return func(ctx context.Context, ev events.Event) ([]events.Event, error) {
			out, err := next(ctx, ev)
			d := deliveryOf(ctx)
			d.Duration = time.Since(d.start)
			fn(d.Delivery)
			return out, err
		}
	}
}
