package pipeline

import (
	"context"
	"time"

	"github.com/docweave/docweave/events"
)

// keepAlive tells the broker the message is still being worked on, at a
// third of the ack wait, while the handler runs, so the broker does not
// hand it to another replica meanwhile and the ack wait need not cover
// the whole job.
func keepAlive(ackWait time.Duration) Middleware {
	return func(next Handler) Handler {
		return func(ctx context.Context, ev events.Event) ([]events.Event, error) {
			msg := deliveryOf(ctx).msg
			if msg == nil {
				return next(ctx, ev)
			}
			done := make(chan struct{})
			defer close(done)
			go func() {
				t := time.NewTicker(ackWait / 3)
				defer t.Stop()
				for {
					select {
					case <-done:
						return
					case <-ctx.Done():
						return
					case <-t.C:
						_ = msg.InProgress()
					}
				}
			}()
			return next(ctx, ev)
		}
	}
}
