package natsbroker

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/events"
)

// openSite connects to a shared test server as one site and provisions it.
func openSite(t *testing.T, url, site string) *Broker {
	t.Helper()
	b, err := Open(context.Background(), Options{URL: url, Name: site, Site: site})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	if err := Provision(context.Background(), b.JS, 1); err != nil {
		t.Fatalf("provision %s: %v", site, err)
	}
	return b
}

func TestScopeNames(t *testing.T) {
	s := NewScope("handbook")
	if s.Subject(events.SubjectBuildRequested) != "handbook.docweave.build.requested" || s.Unsubject("handbook.docweave.x") != "docweave.x" {
		t.Fatal("subjects")
	}
	if s.Name(StreamName) != "handbook_DOCWEAVE" {
		t.Fatal("names")
	}
	for _, other := range []string{"other_DOCWEAVE", "KV_other_docweave-state", "DOCWEAVE"} {
		if n, ok := s.Unname(other); ok {
			t.Fatalf("%s counted as ours (%s)", other, n)
		}
	}
	if s.Name("KV_docweave-state") != "KV_handbook_docweave-state" {
		t.Fatalf("backing stream of a bucket: %s", s.Name("KV_docweave-state"))
	}
	if n, ok := s.Unname("KV_handbook_docweave-state"); !ok || n != "KV_docweave-state" {
		t.Fatalf("unname backing stream: %s %v", n, ok)
	}
	if got := s.Subject("$KV.builder-link-cache.target.1"); got != "$KV.handbook_builder-link-cache.target.1" {
		t.Fatalf("bucket subject %s", got)
	}
	if got := s.Unsubject("$KV.handbook_builder-link-cache.target.1"); got != "$KV.builder-link-cache.target.1" {
		t.Fatalf("unscoped bucket subject %s", got)
	}
	if got := s.Subject("$JS.API.INFO"); got != "$JS.API.INFO" {
		t.Fatalf("the broker's API subject changed: %s", got)
	}
	none := NewScope("")
	if none.Subject("a.b") != "a.b" || none.Name("X") != "X" {
		t.Fatal("the empty scope changed a name")
	}
}

// Code that publishes into a bucket directly ($KV.<bucket>.<key>, for a
// per-entry time to live) reaches the site's bucket.
func TestScopedBucketSubjects(t *testing.T) {
	srv := startTestServer(t, "", "")
	ctx := context.Background()
	b := openSite(t, srv.ClientURL(), "handbook")
	kv, err := b.JS.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: "cache", LimitMarkerTTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if kv.Bucket() != "handbook_cache" {
		t.Fatalf("bucket on the broker: %s", kv.Bucket())
	}
	msg := &nats.Msg{Subject: "$KV.cache.entry", Data: []byte("v")}
	if _, err := b.JS.PublishMsg(ctx, msg, jetstream.WithMsgTTL(time.Minute)); err != nil {
		t.Fatalf("publish into the bucket: %v", err)
	}
	if e, err := kv.Get(ctx, "entry"); err != nil || string(e.Value()) != "v" {
		t.Fatalf("entry: %v", err)
	}
	if msg.Subject != "$KV.cache.entry" {
		t.Fatalf("the caller's message was changed: %s", msg.Subject)
	}
}
