// Package roles names the parts of the JetStream API docweave uses, each
// with only the methods some code calls: a function asks for the role it
// needs (publishing, buckets, consumers …) rather than the whole
// jetstream.JetStream, and a site's scope (natsbroker.Scope) re-implements
// these methods only. It depends on nothing of docweave's, so every
// package may name its roles.
package roles

import (
	"context"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Publisher publishes messages to streams: a stage's output, a record.
type Publisher interface {
	PublishMsg(ctx context.Context, msg *nats.Msg, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error)
}

// Streams reads and provisions streams.
type Streams interface {
	Stream(ctx context.Context, name string) (jetstream.Stream, error)
	CreateStream(ctx context.Context, cfg jetstream.StreamConfig) (jetstream.Stream, error)
	CreateOrUpdateStream(ctx context.Context, cfg jetstream.StreamConfig) (jetstream.Stream, error)
}

// Consumers reads, provisions and removes the consumers of streams.
type Consumers interface {
	Consumer(ctx context.Context, stream, consumer string) (jetstream.Consumer, error)
	CreateConsumer(ctx context.Context, stream string, cfg jetstream.ConsumerConfig) (jetstream.Consumer, error)
	CreateOrUpdateConsumer(ctx context.Context, stream string, cfg jetstream.ConsumerConfig) (jetstream.Consumer, error)
	DeleteConsumer(ctx context.Context, stream, consumer string) error
	OrderedConsumer(ctx context.Context, stream string, cfg jetstream.OrderedConsumerConfig) (jetstream.Consumer, error)
}

// KeyValues opens and provisions key-value buckets.
type KeyValues interface {
	KeyValue(ctx context.Context, bucket string) (jetstream.KeyValue, error)
	CreateOrUpdateKeyValue(ctx context.Context, cfg jetstream.KeyValueConfig) (jetstream.KeyValue, error)
}

// ObjectStores opens and provisions object stores. Conn and Options give
// the connection and API they go through, for code that must reach an
// object store's stream by its own name (the artifact store).
type ObjectStores interface {
	ObjectStore(ctx context.Context, bucket string) (jetstream.ObjectStore, error)
	CreateOrUpdateObjectStore(ctx context.Context, cfg jetstream.ObjectStoreConfig) (jetstream.ObjectStore, error)
	Conn() *nats.Conn
	Options() jetstream.JetStreamOptions
}

// Provisioner creates the streams and buckets a part of docweave owns.
type Provisioner interface {
	Streams
	KeyValues
}

// JetStream is every role: what a broker's (scoped) API offers, and what
// a stage's Setup and the runner get.
type JetStream interface {
	Publisher
	Streams
	Consumers
	KeyValues
	ObjectStores
}

// nats.go's JetStream API plays every role.
var _ JetStream = jetstream.JetStream(nil)
