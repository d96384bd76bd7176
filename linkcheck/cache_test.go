package linkcheck

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/docweave/docweave/pipeline/natsbroker"
)

// openTestCache starts an in-process NATS server with JetStream, provisions
// the link resources as the stage does, and opens the cache.
func openTestCache(t testing.TB) (*Cache, *natsbroker.Broker) {
	t.Helper()
	ctx := context.Background()
	b, err := natsbroker.Open(ctx, natsbroker.Options{StoreDir: filepath.Join(t.TempDir(), "nats"), Name: "linkcheck-test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	if err := ProvisionLinks(ctx, b.JS, LinkResources{Subject: "builder.links.broken", Bucket: "builder-link-cache"}); err != nil {
		t.Fatal(err)
	}
	c, err := OpenCache(ctx, b.JS, "builder-link-cache")
	if err != nil {
		t.Fatal(err)
	}
	return c, b
}

func TestCachePutGetRoundTrip(t *testing.T) {
	c, _ := openTestCache(t)
	ctx := context.Background()
	in := Entry{URL: "https://example.org/", Verdict: Verdict{Status: StatusOK, Code: 200}, CheckedAt: time.Now().UTC().Truncate(time.Second)}
	key := TargetKey(Target{Kind: KindExternal, URL: in.URL}.Key())
	if err := c.Put(ctx, key, in, time.Hour); err != nil {
		t.Fatal(err)
	}
	var out Entry
	ok, err := c.Get(ctx, key, &out)
	if err != nil || !ok {
		t.Fatalf("get: %v %v", ok, err)
	}
	if out.URL != in.URL || out.Verdict != in.Verdict || !out.CheckedAt.Equal(in.CheckedAt) {
		t.Fatalf("round trip: %+v", out)
	}
	if ok, err := c.Get(ctx, TargetKey("nothing"), &out); ok || err != nil {
		t.Fatalf("absent key: %v %v", ok, err)
	}
}

// TestCacheEntriesExpireOnTheBroker checks that the per-entry time to live
// really reaches the server: an entry written with one second is gone soon
// after, while one written with an hour stays.
func TestCacheEntriesExpireOnTheBroker(t *testing.T) {
	c, _ := openTestCache(t)
	ctx := context.Background()
	if err := c.Put(ctx, "target.short", Entry{URL: "short"}, 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(ctx, "target.long", Entry{URL: "long"}, time.Hour); err != nil {
		t.Fatal(err)
	}
	var e Entry
	deadline := time.Now().Add(15 * time.Second)
	for {
		ok, err := c.Get(ctx, "target.short", &e)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("an entry written with a one-second TTL never expired")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if ok, err := c.Get(ctx, "target.long", &e); !ok || err != nil {
		t.Fatalf("the one-hour entry expired with the short one: %v %v", ok, err)
	}
}

func TestRoundTTL(t *testing.T) {
	for in, want := range map[time.Duration]time.Duration{
		0: time.Second, 10 * time.Millisecond: time.Second, time.Second: time.Second,
		1500 * time.Millisecond: 2 * time.Second, time.Hour: time.Hour,
	} {
		if got := roundTTL(in); got != want {
			t.Errorf("roundTTL(%v) = %v, want %v", in, got, want)
		}
	}
}

func TestEntryFresh(t *testing.T) {
	now := time.Now()
	if (&Entry{FreshUntil: now.Add(time.Minute)}).Fresh(now) != true {
		t.Error("entry within its TTL is not fresh")
	}
	if (&Entry{FreshUntil: now}).Fresh(now) {
		t.Error("entry at its expiry is still fresh")
	}
	if (&Entry{}).Fresh(now) || (*Entry)(nil).Fresh(now) {
		t.Error("history-only or absent entry counted as fresh")
	}
}
