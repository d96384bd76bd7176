package linkcheck

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline/natsbroker/roles"
)

// What link verification keeps on the broker, beside the pipeline's own
// stream and buckets: the stream of broken-link events and the cache
// bucket. The verifylinks stage provisions them (its Setup), a subscriber
// (docweave links tail) makes sure the stream exists. On a broker shared
// by sites the JetStream API given is the site's scoped one (package
// pipeline), which says so with a SiteScoped method.

// Link verification's broker resources (docs/links.md).
const (
	// LinksStreamName keeps the broken-link events, on the configured
	// subject, long enough for a subscriber to start late and replay.
	LinksStreamName = "DOCWEAVE_LINKS"
	// LinksStreamMaxAge is how long broken-link events are kept.
	LinksStreamMaxAge = 30 * 24 * time.Hour
	// linksDuplicatesWindow covers a redelivered verification of a large
	// site: its events carry the same IDs and are dropped within this time.
	linksDuplicatesWindow = 2 * time.Hour
	// linksLimitMarkerTTL is how long the cache bucket keeps the marker a
	// per-entry expiry leaves; the bucket needs it for per-entry TTLs.
	linksLimitMarkerTTL = time.Hour
)

// LinkResources names what link verification keeps on the broker: the
// subject of its broken-link events and its cache bucket (subject and
// kv_bucket of daemon.link_verification).
type LinkResources struct {
	Subject  string
	Bucket   string
	Replicas int
}

// ProvisionLinks creates or updates the broken-link stream and the link
// cache bucket. The bucket allows a time to live per entry (nats-server
// 2.11+): successes and failures expire after different times. The subject
// must lie outside docweave.>, which the pipeline stream owns.
func ProvisionLinks(ctx context.Context, js roles.Provisioner, res LinkResources) error {
	if err := CheckLinkSubject(res.Subject); err != nil {
		return err
	}
	if _, err := js.CreateOrUpdateStream(ctx, linksStreamConfig(js, res)); err != nil {
		return fmt.Errorf("provision stream %s on subject %s: %w", LinksStreamName, res.Subject, err)
	}
	_, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:         res.Bucket,
		Description:    "docweave link verification cache (daemon.link_verification.kv_bucket)",
		History:        1,
		Storage:        jetstream.FileStorage,
		Replicas:       max(res.Replicas, 1),
		LimitMarkerTTL: linksLimitMarkerTTL,
	})
	if err != nil {
		return fmt.Errorf("provision bucket %s (daemon.link_verification.kv_bucket; per-entry expiry needs nats-server 2.11 or later): %w", res.Bucket, err)
	}
	return nil
}

// CheckLinkSubject refuses a broken-link subject that the pipeline stream
// would capture too: JetStream does not allow two streams on one subject.
func CheckLinkSubject(subject string) error {
	if subject == "" || strings.HasPrefix(subject, events.Prefix) || strings.ContainsAny(subject, "*> \t") {
		return fmt.Errorf("daemon.link_verification.subject %q: expected a plain subject outside %s (which the pipeline stream owns), such as %s",
			subject, events.AllSubjects, events.DefaultBrokenLinkSubject)
	}
	return nil
}

// linksStreamConfig keeps a site's broken-link events. On a broker shared
// by sites (a scoped js) the events travel on the site's subject like
// every other message, and the stream republishes each one on the public
// subject as configured, so subscribers of builder.links.broken hear every
// site (the Nats-Stream header names the site's stream) while no two
// sites' streams claim the same subject.
func linksStreamConfig(js roles.Streams, res LinkResources) jetstream.StreamConfig {
	cfg := jetstream.StreamConfig{
		Name:        LinksStreamName,
		Description: "docweave broken-link events (daemon.link_verification.subject)",
		Subjects:    []string{res.Subject},
		Retention:   jetstream.LimitsPolicy,
		MaxAge:      LinksStreamMaxAge,
		Duplicates:  linksDuplicatesWindow,
		Storage:     jetstream.FileStorage,
		Replicas:    max(res.Replicas, 1),
	}
	if scoped, ok := js.(interface{ SiteScoped() bool }); ok && scoped.SiteScoped() {
		cfg.RePublish = &jetstream.RePublish{Source: res.Subject, Destination: res.Subject}
	}
	return cfg
}

// EnsureLinkStream is for subscribers: it creates the broken-link stream
// when it does not exist yet (a subscriber may start before the first
// verification), and otherwise checks that it carries subject — never
// changing a stream the verifying side configured.
func EnsureLinkStream(ctx context.Context, js roles.Streams, subject string) error {
	if err := CheckLinkSubject(subject); err != nil {
		return err
	}
	stream, err := js.Stream(ctx, LinksStreamName)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		_, err = js.CreateStream(ctx, linksStreamConfig(js, LinkResources{Subject: subject}))
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			return EnsureLinkStream(ctx, js, subject) // created meanwhile by another process
		}
		if err != nil {
			return fmt.Errorf("create stream %s on subject %s: %w", LinksStreamName, subject, err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("stream %s: %w", LinksStreamName, err)
	}
	for _, s := range stream.CachedInfo().Config.Subjects {
		if s == subject {
			return nil
		}
	}
	return fmt.Errorf("stream %s carries %v, not subject %s: is daemon.link_verification.subject the same here as where links are verified?",
		LinksStreamName, stream.CachedInfo().Config.Subjects, subject)
}
