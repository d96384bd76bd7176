package buildstate_test

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/pipeline/natsbroker"
)

// bucketSizes reads the size of every value in a bucket.
type bucketSizes struct {
	b      *natsbroker.Broker
	bucket string
}

// Values returns each key's value size.
func (s bucketSizes) Values(ctx context.Context) (map[string]int, error) {
	kv, err := s.b.JS.KeyValue(ctx, s.bucket)
	if err != nil {
		return nil, err
	}
	w, err := kv.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return nil, err
	}
	defer w.Stop()
	out := map[string]int{}
	for e := range w.Updates() {
		if e == nil {
			break
		}
		out[e.Key()] = len(e.Value())
	}
	return out, nil
}
