package pipeline

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/docweave/docweave/events"
)

// On adapts a stage's job on its one event type to a Handler: the stage
// receives its own type, and a message of any other type (its subjects and
// the events' registry disagree) is a permanent error naming both, so no
// stage repeats that check.
func On[T events.Event](stage string, job func(context.Context, T) ([]events.Event, error)) Handler {
	return func(ctx context.Context, ev events.Event) ([]events.Event, error) {
		in, ok := ev.(T)
		if !ok {
			var want T
			return nil, Permanentf("%s: unexpected %T, it handles %T", stage, ev, want)
		}
		return job(ctx, in)
	}
}

// recovered runs a handler and turns a panic in it into a permanent error
// carrying the panic's value and stack: the message is terminated and the
// stage.failed record says where the handler broke, instead of the process
// dying with every other message it holds.
func recovered(ctx context.Context, stage string, h Handler, ev events.Event) (out []events.Event, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, Permanent(fmt.Errorf("stage %s panicked: %v\n%s", stage, p, debug.Stack()))
		}
	}()
	return h(ctx, ev)
}
