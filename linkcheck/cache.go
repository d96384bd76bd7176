package linkcheck

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/pipeline/natsbroker/roles"
)

// Cache is the link cache in a JetStream key-value bucket (kv_bucket). It
// holds, under keys the bucket accepts:
//
//	target.<sha256 of the target>  an Entry: verdict, freshness, broken-link history
//	page.<sha256 of the HTML>      the PageLinks of a page, by content
//	run.last                       the build whose verification finished last
//
// Every value is written with a per-message time to live (nats-server
// 2.11+, bucket option LimitMarkerTTL), so the bucket cleans itself: a
// success is kept for cache_ttl, a failure for cache_ttl_failures — or
// longer when it carries history, because the history must survive until
// the link is seen again. Whether an entry may be reused is decided by its
// own FreshUntil, so reuse does not depend on when the server gets round to
// expiring it.
type Cache struct {
	js     roles.Publisher
	kv     jetstream.KeyValue
	bucket string
}

// OpenCache binds the (provisioned) bucket.
func OpenCache(ctx context.Context, js interface {
	roles.KeyValues
	roles.Publisher
}, bucket string) (*Cache, error) {
	kv, err := js.KeyValue(ctx, bucket)
	if err != nil {
		return nil, fmt.Errorf("open link cache bucket %s: %w", bucket, err)
	}
	return &Cache{js: js, kv: kv, bucket: bucket}, nil
}

// Entry is what the cache knows about one target.
type Entry struct {
	URL        string    `json:"url"`
	Verdict    Verdict   `json:"verdict"`
	CheckedAt  time.Time `json:"checked_at"`
	FreshUntil time.Time `json:"fresh_until,omitempty"` // zero: never reused (history only)
	History    *History  `json:"history,omitempty"`
}

// Fresh reports whether the verdict may be reused at now.
func (e *Entry) Fresh(now time.Time) bool {
	return e != nil && !e.FreshUntil.IsZero() && now.Before(e.FreshUntil)
}

// History is a broken target's record across verifications: the run of
// consecutive verifications in which it was broken.
type History struct {
	FirstSeen time.Time `json:"first_seen"`
	LastSeen  time.Time `json:"last_seen"`
	Failures  int       `json:"failures"`
	// LastBuild is the build that last counted, so a redelivered
	// verification of the same build does not count twice.
	LastBuild string `json:"last_build"`
}

// RunRecord remembers the last verification, so a broken link's history
// knows whether the previous verification saw it broken too.
type RunRecord struct {
	BuildID  string    `json:"build_id"`
	Previous string    `json:"previous"` // the run before it
	At       time.Time `json:"at"`
}

// Keys of the bucket.
const (
	targetKeyPrefix = "target."
	pageKeyPrefix   = "page."
	runKey          = "run.last"
)

// TargetKey is the bucket key of a target (see Target.Key).
func TargetKey(targetKey string) string { return targetKeyPrefix + hashHex([]byte(targetKey)) }

// PageKey is the bucket key of a page's links, by the page's content hash.
func PageKey(contentHash string) string { return pageKeyPrefix + contentHash }

func hashHex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Get reads key into v. It reports false, without error, when the key is
// absent or expired.
func (c *Cache) Get(ctx context.Context, key string, v any) (bool, error) {
	e, err := c.kv.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("link cache %s: get %s: %w", c.bucket, key, err)
	}
	if err := json.Unmarshal(e.Value(), v); err != nil {
		// An unreadable value (an older layout) is a miss, not a failure.
		return false, nil
	}
	return true, nil
}

// Put writes v under key, to expire after ttl (rounded up to whole
// seconds, the broker's unit; at least one second). The KV API offers a
// per-key TTL only when creating a key, so the value is published to the
// bucket's subject directly, with the Nats-TTL header — exactly what a KV
// put is, plus the expiry.
func (c *Cache) Put(ctx context.Context, key string, v any, ttl time.Duration) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("link cache %s: encode %s: %w", c.bucket, key, err)
	}
	msg := &nats.Msg{Subject: "$KV." + c.bucket + "." + key, Data: data}
	if _, err := c.js.PublishMsg(ctx, msg, jetstream.WithMsgTTL(roundTTL(ttl))); err != nil {
		return fmt.Errorf("link cache %s: put %s: %w", c.bucket, key, err)
	}
	return nil
}

// roundTTL rounds up to whole seconds, at least one.
func roundTTL(d time.Duration) time.Duration {
	if d < time.Second {
		return time.Second
	}
	return (d + time.Second - 1).Truncate(time.Second)
}
