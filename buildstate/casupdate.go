package buildstate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
)

// casAttempts bounds the retries of one compare-and-set update: each
// failed attempt means another process wrote the key in between, which a
// build's fan-in sees at most once per arrival.
const casAttempts = 100

// casUpdate is the one way a fan-in record changes: read it with its
// revision, let change modify it (change reports whether there is
// anything to write), and write it back only if nobody wrote in between;
// otherwise read again and retry. Every join (a build's repositories, its
// render units) and every note on a build goes through it, so arrivals of
// many replicas never overwrite one another. It returns the record as
// written (or as read, when change wrote nothing).
func casUpdate[S any](ctx context.Context, kv jetstream.KeyValue, key string,
	read func(context.Context) (*S, uint64, error), change func(*S) (bool, error)) (*S, error) {
	for attempt := 0; attempt < casAttempts; attempt++ {
		cur, rev, err := read(ctx)
		if err != nil {
			return nil, err
		}
		write, err := change(cur)
		if err != nil || !write {
			return cur, err
		}
		data, err := json.Marshal(cur)
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", key, err)
		}
		if _, err = kv.Update(ctx, key, data, rev); err == nil {
			return cur, nil
		}
		if !errors.Is(err, jetstream.ErrKeyRevisionMismatch) && !errors.Is(err, jetstream.ErrKeyExists) {
			return nil, fmt.Errorf("update %s: %w", key, err)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("update %s: too many concurrent updates", key)
}

// readRecord reads the JSON record under key with its revision; what names
// it in errors ("build …"). A record that does not decode is a
// CorruptError: retrying cannot help.
func readRecord[S any](ctx context.Context, kv jetstream.KeyValue, key, what string) (*S, uint64, error) {
	e, err := kv.Get(ctx, key)
	if err != nil {
		return nil, 0, fmt.Errorf("read %s: %w", what, err)
	}
	var rec S
	if err := json.Unmarshal(e.Value(), &rec); err != nil {
		return nil, 0, &CorruptError{What: what, Err: err}
	}
	return &rec, e.Revision(), nil
}
