package pipeline

import (
	"context"

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
