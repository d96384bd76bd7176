package pipeline

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"
)

// Middleware wraps a Handler with one concern of the runner's (recovery,
// dropping stale builds, noting redeliveries, observation), so each lives
// in its own file with its own test and the runner itself only decodes,
// publishes and acknowledges. The runner composes them around every
// stage's handler; the first middleware of a chain is the outermost.
type Middleware func(Handler) Handler

// chain wraps h in the middlewares, the first outermost.
func chain(h Handler, mws ...Middleware) Handler {
	for i := len(mws) - 1; i >= 0; i-- {
		h = mws[i](h)
	}
	return h
}

// delivery is what the runner knows of the message a handler is called
// for; middlewares read it from the context (deliveryOf) and fill in
// what they decide (a dropped message's outcome).
type delivery struct {
	Delivery
	// start is when the runner received the message.
	start time.Time
	// stage is the stage handling it.
	stage Stage
	// msg is the broker's message, for signalling progress.
	msg jetstream.Msg
	// log carries the delivery's stage, subject, message ID, attempt
	// and, once decoded, build ID.
	log zerolog.Logger
}

type deliveryKey struct{}

// withDelivery returns ctx carrying d for the middlewares.
func withDelivery(ctx context.Context, d *delivery) context.Context {
	return context.WithValue(ctx, deliveryKey{}, d)
}

// deliveryOf returns the delivery a handler is called for; outside the
// runner (a handler called directly) it is an empty one, so middlewares
// need no nil checks.
func deliveryOf(ctx context.Context) *delivery {
	if d, ok := ctx.Value(deliveryKey{}).(*delivery); ok {
		return d
	}
	return &delivery{log: zerolog.Nop()}
}
