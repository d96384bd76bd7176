package pipeline

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/pipeline/natsbroker"
	"github.com/docweave/docweave/pipeline/natsbroker/roles"
)

// consumerPrefix starts the name of every stage's durable consumer.
const consumerPrefix = "stage-"

// ConsumerName is the durable consumer a stage's replicas share.
func ConsumerName(stage string) string { return consumerPrefix + stage }

// ProvisionConsumer creates or updates the durable consumer of one stage.
// MaxAckPending bounds how much work is in flight across all replicas: it is
// the pipeline's backpressure.
func ProvisionConsumer(ctx context.Context, js roles.JetStream, st Stage) (jetstream.Consumer, error) {
	if st.Setup != nil {
		if err := st.Setup(ctx, js); err != nil {
			return nil, fmt.Errorf("set up stage %s: %w", st.Name, err)
		}
	}
	want := consumerConfig(st)
	c, err := js.Consumer(ctx, natsbroker.StreamName, want.Durable)
	switch {
	case err == nil:
		// Where delivery starts cannot change on an existing consumer (a
		// consumer RedeliverNow made starts at a sequence): keep it.
		have := c.CachedInfo().Config
		want.DeliverPolicy, want.OptStartSeq = have.DeliverPolicy, have.OptStartSeq
	case errors.Is(err, jetstream.ErrConsumerNotFound):
		return takeOverFormerConsumer(ctx, js, st, want)
	}
	c, err = js.CreateOrUpdateConsumer(ctx, natsbroker.StreamName, want)
	if err != nil {
		return nil, fmt.Errorf("provision consumer for stage %s: %w", st.Name, err)
	}
	return c, nil
}

// takeOverFormerConsumer creates the consumer of a renamed stage where the
// consumer of its former name stands, so an upgrade neither replays the
// stream's history (a new consumer delivers everything kept) nor skips
// messages: delivery starts after the former consumer's ack floor, so what
// it held unacknowledged is delivered again, to an idempotent handler. The
// former consumer is then deleted. Without a former consumer, the stage's
// consumer is created as usual.
func takeOverFormerConsumer(ctx context.Context, js roles.Consumers, st Stage, want jetstream.ConsumerConfig) (jetstream.Consumer, error) {
	for _, old := range st.FormerNames {
		former, err := js.Consumer(ctx, natsbroker.StreamName, ConsumerName(old))
		if errors.Is(err, jetstream.ErrConsumerNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("provision consumer for stage %s: read former consumer %s: %w", st.Name, ConsumerName(old), err)
		}
		want.DeliverPolicy = jetstream.DeliverByStartSequencePolicy
		want.OptStartSeq = former.CachedInfo().AckFloor.Stream + 1
		c, err := js.CreateOrUpdateConsumer(ctx, natsbroker.StreamName, want)
		if err != nil {
			return nil, fmt.Errorf("provision consumer for stage %s: %w", st.Name, err)
		}
		if err := js.DeleteConsumer(ctx, natsbroker.StreamName, ConsumerName(old)); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
			return nil, fmt.Errorf("provision consumer for stage %s: delete former consumer %s: %w", st.Name, ConsumerName(old), err)
		}
		return c, nil
	}
	c, err := js.CreateOrUpdateConsumer(ctx, natsbroker.StreamName, want)
	if err != nil {
		return nil, fmt.Errorf("provision consumer for stage %s: %w", st.Name, err)
	}
	return c, nil
}

// consumerConfig is the durable consumer a stage's replicas share.
func consumerConfig(st Stage) jetstream.ConsumerConfig {
	return jetstream.ConsumerConfig{
		Durable:        ConsumerName(st.Name),
		Description:    "docweave stage " + st.Name,
		FilterSubjects: st.Subjects,
		AckPolicy:      jetstream.AckExplicitPolicy,
		AckWait:        st.ackWait(),
		MaxDeliver:     st.maxDeliver(),
		MaxAckPending:  st.maxAckPending(),
		DeliverPolicy:  jetstream.DeliverAllPolicy,
	}
}

// RedeliverNow hands back, for delivery at once, the messages of a stage
// that a process which is gone had received but not acknowledged: without
// it they wait for their ack wait to run out. It recreates the stage's
// consumer to start after the last message acknowledged in order. Only a
// process that knows no other process consumes for the stage may call it
// (a daemon with its own broker, at start-up); it returns how many
// messages were held.
func RedeliverNow(ctx context.Context, js roles.Consumers, st Stage) (int, error) {
	c, err := js.Consumer(ctx, natsbroker.StreamName, ConsumerName(st.Name))
	if errors.Is(err, jetstream.ErrConsumerNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("stage %s: %w", st.Name, err)
	}
	info := c.CachedInfo()
	if info.NumAckPending == 0 {
		return 0, nil
	}
	if err := js.DeleteConsumer(ctx, natsbroker.StreamName, ConsumerName(st.Name)); err != nil {
		return 0, fmt.Errorf("stage %s: %w", st.Name, err)
	}
	cfg := consumerConfig(st)
	cfg.DeliverPolicy = jetstream.DeliverByStartSequencePolicy
	cfg.OptStartSeq = info.AckFloor.Stream + 1
	// The server may still be flushing the deleted consumer's state when
	// the same name is created again (its file store then answers a
	// rename error): try again briefly before giving up.
	for try := 1; try <= 5; try++ {
		if _, err = js.CreateConsumer(ctx, natsbroker.StreamName, cfg); err == nil {
			return info.NumAckPending, nil
		}
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("stage %s: %w", st.Name, err)
		case <-time.After(time.Duration(try) * 100 * time.Millisecond):
		}
	}
	return 0, fmt.Errorf("stage %s: %w", st.Name, err)
}
