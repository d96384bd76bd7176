package natsbroker

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline/natsbroker/roles"
)

// Names of what the pipeline provisions on the broker. Operators see these
// in `nats stream ls` and in docs/operations.md.
const (
	StreamName       = "DOCWEAVE"
	duplicatesWindow = 10 * time.Minute
	streamMaxAge     = 7 * 24 * time.Hour
)

// Provision creates or updates the pipeline stream and the builds and state
// buckets. It is idempotent, so every process may call it at start-up; on a
// cluster that is still electing leaders (all processes of a deployment
// starting at once) it retries for up to a minute.
func Provision(ctx context.Context, js roles.Provisioner, replicas int) error {
	if replicas < 1 {
		replicas = 1
	}
	return RetryWhileElecting(ctx, func(ctx context.Context) error { return provisionOnce(ctx, js, replicas) })
}

func provisionOnce(ctx context.Context, js roles.Provisioner, replicas int) error {
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
