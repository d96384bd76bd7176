package pipeline

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/docweave/docweave/events"
)

// recoverPanics turns a panic in the handler into a permanent error
// carrying the panic's value and stack: the message is terminated and the
// stage.failed record says where the handler broke, instead of the process
// dying with every other message it holds.
func recoverPanics(stage string) Middleware {
	return func(next Handler) Handler {
		return func(ctx context.Context, ev events.Event) (out []events.Event, err error) {
			defer func() {
				if p := recover(); p != nil {
					out, err = nil, Permanent(fmt.Errorf("stage %s panicked: %v\n%s", stage, p, debug.Stack()))
				}
			}()
			return next(ctx, ev)
		}
	}
}
