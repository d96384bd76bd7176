package pipeline

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/events"
)

// Names of what the pipeline provisions on the broker. Operators see these
// in `nats stream ls` and in docs/operations.md.
const (
	StreamName       = "DOCWEAVE"
	BuildsBucket     = "docweave-builds"
	consumerPrefix   = "stage-"
	duplicatesWindow = 10 * time.Minute
	streamMaxAge     = 7 * 24 * time.Hour
)

// ConsumerName is the durable consumer a stage's replicas share.
func ConsumerName(stage string) string { return consumerPrefix + stage }

// Provision creates or updates the pipeline stream and the builds bucket.
// It is idempotent, so every process may call it at start-up.
func Provision(ctx context.Context, js jetstream.JetStream, replicas int) error {
	if replicas < 1 {
		replicas = 1
	}
	_, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        StreamName,
		Description: "docweave pipeline messages",
		Subjects:    []string{events.AllSubjects},
		Retention:   jetstream.LimitsPolicy,
		MaxAge:      streamMaxAge,
		Duplicates:  duplicatesWindow,
		Storage:     jetstream.FileStorage,
		Replicas:    replicas,
	})
	if err != nil {
		return fmt.Errorf("provision stream %s: %w", StreamName, err)
	}
	_, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:      BuildsBucket,
		Description: "docweave build state: the fan-in of repositories before render",
		History:     1,
		TTL:         streamMaxAge,
		Storage:     jetstream.FileStorage,
		Replicas:    replicas,
	})
	if err != nil {
		return fmt.Errorf("provision bucket %s: %w", BuildsBucket, err)
	}
	_, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:      StateBucket,
		Description: "docweave: what the last good build published (skip-if-unchanged)",
		History:     5,
		Storage:     jetstream.FileStorage,
		Replicas:    replicas,
	})
	if err != nil {
		return fmt.Errorf("provision bucket %s: %w", StateBucket, err)
	}
	return nil
}

// ProvisionConsumer creates or updates the durable consumer of one stage.
// MaxAckPending bounds how much work is in flight across all replicas: it is
// the pipeline's backpressure.
func ProvisionConsumer(ctx context.Context, js jetstream.JetStream, st Stage) (jetstream.Consumer, error) {
	c, err := js.CreateOrUpdateConsumer(ctx, StreamName, jetstream.ConsumerConfig{
		Durable:        ConsumerName(st.Name),
		Description:    "docweave stage " + st.Name,
		FilterSubjects: st.Subjects,
		AckPolicy:      jetstream.AckExplicitPolicy,
		AckWait:        st.ackWait(),
		MaxDeliver:     st.maxDeliver(),
		MaxAckPending:  st.maxAckPending(),
		DeliverPolicy:  jetstream.DeliverAllPolicy,
	})
	if err != nil {
		return nil, fmt.Errorf("provision consumer for stage %s: %w", st.Name, err)
	}
	return c, nil
}
