package pipeline

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/events"
)

// Names of what the pipeline provisions on the broker. Operators see these
// in `nats stream ls` and in docs/operations.md.
const (
	StreamName       = "DOCWEAVE"
	consumerPrefix   = "stage-"
	duplicatesWindow = 10 * time.Minute
	streamMaxAge     = 7 * 24 * time.Hour
)

// ConsumerName is the durable consumer a stage's replicas share.
func ConsumerName(stage string) string { return consumerPrefix + stage }

// Provision creates or updates the pipeline stream and the builds and state
// buckets. It is idempotent, so every process may call it at start-up; on a
// cluster that is still electing leaders (all processes of a deployment
// starting at once) it retries for up to a minute.
func Provision(ctx context.Context, js jetstream.JetStream, replicas int) error {
	if replicas < 1 {
		replicas = 1
	}
	return RetryWhileElecting(ctx, func(ctx context.Context) error { return provisionOnce(ctx, js, replicas) })
}

func provisionOnce(ctx context.Context, js jetstream.JetStream, replicas int) error {
	want := jetstream.StreamConfig{
		Name:        StreamName,
		Description: "docweave pipeline messages",
		Subjects:    []string{events.AllSubjects},
		Retention:   jetstream.LimitsPolicy,
		MaxAge:      streamMaxAge,
		Duplicates:  duplicatesWindow,
		Storage:     jetstream.FileStorage,
		Replicas:    replicas,
	}
	// Another process may have provisioned it already: an identical update
	// would only cost a round of consensus on a cluster.
	if s, err := js.Stream(ctx, StreamName); err != nil || !sameStream(s.CachedInfo().Config, want) {
		if _, err := js.CreateOrUpdateStream(ctx, want); err != nil {
			return fmt.Errorf("provision stream %s: %w", StreamName, err)
		}
	}
	buckets := []jetstream.KeyValueConfig{{
		Bucket:      buildstate.BuildsBucket,
		Description: "docweave build state: the fan-in of repositories before render",
		History:     1,
		TTL:         streamMaxAge,
		Storage:     jetstream.FileStorage,
		Replicas:    replicas,
	}, {
		Bucket:      buildstate.StateBucket,
		Description: "docweave: what the last good build published (skip-if-unchanged)",
		History:     5,
		Storage:     jetstream.FileStorage,
		Replicas:    replicas,
	}}
	for _, b := range buckets {
		if kv, err := js.KeyValue(ctx, b.Bucket); err == nil {
			if st, err := kv.Status(ctx); err == nil {
				if bs, ok := st.(*jetstream.KeyValueBucketStatus); ok && bs.StreamInfo().Config.Replicas == replicas {
					continue
				}
			}
		}
		if _, err := js.CreateOrUpdateKeyValue(ctx, b); err != nil {
			return fmt.Errorf("provision bucket %s: %w", b.Bucket, err)
		}
	}
	return nil
}

func sameStream(have, want jetstream.StreamConfig) bool {
	return have.Replicas == want.Replicas && have.MaxAge == want.MaxAge && have.Duplicates == want.Duplicates &&
		len(have.Subjects) == 1 && have.Subjects[0] == want.Subjects[0]
}

// attemptTimeout bounds one attempt of RetryWhileElecting.
const attemptTimeout = 5 * time.Second

// RetryWhileElecting retries transient broker failures (timeouts, no
// leader yet) with a growing delay, for up to a minute: what every process
// of a deployment meets when they all start at once on a fresh cluster.
// Each attempt gets attemptTimeout: a request that reached the cluster
// while it was busy (several processes provisioning the same stream at
// once) may never be answered, and asking again soon is quicker than
// waiting long.
func RetryWhileElecting(ctx context.Context, f func(context.Context) error) error {
	deadline := time.Now().Add(time.Minute)
	delay := 200 * time.Millisecond
	for {
		actx, cancel := context.WithTimeout(ctx, attemptTimeout)
		err := f(actx)
		cancel()
		if err == nil || time.Now().After(deadline) || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(delay):
		}
		if delay < 5*time.Second {
			delay *= 2
		}
	}
}

// ProvisionConsumer creates or updates the durable consumer of one stage.
// MaxAckPending bounds how much work is in flight across all replicas: it is
// the pipeline's backpressure.
func ProvisionConsumer(ctx context.Context, js jetstream.JetStream, st Stage) (jetstream.Consumer, error) {
	if st.Setup != nil {
		if err := st.Setup(ctx, js); err != nil {
			return nil, fmt.Errorf("set up stage %s: %w", st.Name, err)
		}
	}
	want := consumerConfig(st)
	c, err := js.Consumer(ctx, StreamName, want.Durable)
	switch {
	case err == nil:
		// Where delivery starts cannot change on an existing consumer (a
		// consumer RedeliverNow made starts at a sequence): keep it.
		have := c.CachedInfo().Config
		want.DeliverPolicy, want.OptStartSeq = have.DeliverPolicy, have.OptStartSeq
	case errors.Is(err, jetstream.ErrConsumerNotFound):
		return takeOverFormerConsumer(ctx, js, st, want)
	}
	c, err = js.CreateOrUpdateConsumer(ctx, StreamName, want)
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
func takeOverFormerConsumer(ctx context.Context, js jetstream.JetStream, st Stage, want jetstream.ConsumerConfig) (jetstream.Consumer, error) {
	for _, old := range st.FormerNames {
		former, err := js.Consumer(ctx, StreamName, ConsumerName(old))
		if errors.Is(err, jetstream.ErrConsumerNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("provision consumer for stage %s: read former consumer %s: %w", st.Name, ConsumerName(old), err)
		}
		want.DeliverPolicy = jetstream.DeliverByStartSequencePolicy
		want.OptStartSeq = former.CachedInfo().AckFloor.Stream + 1
		c, err := js.CreateOrUpdateConsumer(ctx, StreamName, want)
		if err != nil {
			return nil, fmt.Errorf("provision consumer for stage %s: %w", st.Name, err)
		}
		if err := js.DeleteConsumer(ctx, StreamName, ConsumerName(old)); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
			return nil, fmt.Errorf("provision consumer for stage %s: delete former consumer %s: %w", st.Name, ConsumerName(old), err)
		}
		return c, nil
	}
	c, err := js.CreateOrUpdateConsumer(ctx, StreamName, want)
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
func RedeliverNow(ctx context.Context, js jetstream.JetStream, st Stage) (int, error) {
	c, err := js.Consumer(ctx, StreamName, ConsumerName(st.Name))
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
	if err := js.DeleteConsumer(ctx, StreamName, ConsumerName(st.Name)); err != nil {
		return 0, fmt.Errorf("stage %s: %w", st.Name, err)
	}
	cfg := consumerConfig(st)
	cfg.DeliverPolicy = jetstream.DeliverByStartSequencePolicy
	cfg.OptStartSeq = info.AckFloor.Stream + 1
	// The server may still be flushing the deleted consumer's state when
	// the same name is created again (its file store then answers a
	// rename error): try again briefly before giving up.
	for try := 1; try <= 5; try++ {
		if _, err = js.CreateConsumer(ctx, StreamName, cfg); err == nil {
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
