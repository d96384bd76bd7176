package pipeline

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/linkcheck"
	"github.com/docweave/docweave/pipeline/natsbroker"
)

// openSite connects to a shared test server as one site and provisions it.
func openSite(t *testing.T, url, site string) *natsbroker.Broker {
	t.Helper()
	b, err := natsbroker.Open(context.Background(), natsbroker.Options{URL: url, Name: site, Site: site})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	if err := natsbroker.Provision(context.Background(), b.JS, 1); err != nil {
		t.Fatalf("provision %s: %v", site, err)
	}
	return b
}

// Two sites on one server keep apart: each stage sees only its own site's
// messages, and the broker holds only site-named resources.
func TestSitesOnOneBrokerDoNotSeeEachOther(t *testing.T) {
	url := startSharedBroker(t)
	ctx := context.Background()
	sites := map[string]*natsbroker.Broker{"alpha": openSite(t, url, "alpha"), "beta": openSite(t, url, "beta")}
	handled := map[string]chan string{"alpha": make(chan string, 8), "beta": make(chan string, 8)}
	finished := map[string]<-chan events.Event{}
	for name, b := range sites {
		ch := handled[name]
		runStages(t, b, Stage{
			Name: "discover", Subjects: []string{events.SubjectBuildRequested},
			Handle: func(_ context.Context, ev events.Event) ([]events.Event, error) {
				ch <- ev.Head().BuildID
				return nil, nil
			},
		})
		finished[name] = collect(t, b, events.SubjectBuildRequested)
	}
	for _, b := range sites {
		if err := b.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := Publish(ctx, sites["alpha"].JS, request("for-alpha")); err != nil {
		t.Fatal(err)
	}
	if got := <-handled["alpha"]; got != "b-for-alpha" {
		t.Fatalf("alpha handled %s", got)
	}
	if ev := waitEvent(t, finished["alpha"]); ev.Head().BuildID != "b-for-alpha" {
		t.Fatalf("alpha's subscriber saw %s", ev.Head().BuildID)
	}
	select {
	case id := <-handled["beta"]:
		t.Fatalf("beta's stage handled alpha's message %s", id)
	case ev := <-finished["beta"]:
		t.Fatalf("beta's subscriber saw alpha's message %s", ev.Head().BuildID)
	case <-time.After(500 * time.Millisecond):
	}

	// What the broker holds, seen without a scope.
	raw, err := jetstream.New(sites["alpha"].JS.Conn())
	if err != nil {
		t.Fatal(err)
	}
	var streams []string
	lister := raw.StreamNames(ctx)
	for n := range lister.Name() {
		streams = append(streams, n)
	}
	slices.Sort(streams)
	want := []string{"KV_alpha_docweave-builds", "KV_alpha_docweave-state", "KV_beta_docweave-builds", "KV_beta_docweave-state", "alpha_DOCWEAVE", "beta_DOCWEAVE"}
	if !slices.Equal(streams, want) {
		t.Fatalf("streams on the broker %v, want %v", streams, want)
	}
	info, err := raw.Stream(ctx, "alpha_DOCWEAVE")
	if err != nil {
		t.Fatal(err)
	}
	if s := info.CachedInfo().Config.Subjects; !slices.Equal(s, []string{"alpha.docweave.>"}) {
		t.Fatalf("alpha's stream captures %v", s)
	}
	// Seen through the scope, the site's own names, as code writes them.
	st, err := sites["beta"].JS.Stream(ctx, natsbroker.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	if c := st.CachedInfo().Config; c.Name != natsbroker.StreamName || !slices.Equal(c.Subjects, []string{events.AllSubjects}) {
		t.Fatalf("beta's stream reads %s %v through the scope", c.Name, c.Subjects)
	}
	for _, bucket := range []string{buildstate.BuildsBucket, buildstate.StateBucket} {
		if _, err := sites["beta"].JS.KeyValue(ctx, bucket); err != nil {
			t.Fatalf("beta's bucket %s: %v", bucket, err)
		}
	}
	if _, err := sites["alpha"].JS.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: "things"}); err != nil {
		t.Fatal(err)
	}
	if _, err := sites["beta"].JS.ObjectStore(ctx, "things"); !errors.Is(err, jetstream.ErrBucketNotFound) {
		t.Fatalf("beta opens alpha's object store: %v", err)
	}
	if _, err := sites["alpha"].JS.ObjectStore(ctx, "things"); err != nil {
		t.Fatalf("alpha's object store: %v", err)
	}
}

// Every site publishes its broken-link events on the one public subject,
// without two streams claiming it.
func TestSitesShareThePublicBrokenLinkSubject(t *testing.T) {
	url := startSharedBroker(t)
	ctx := context.Background()
	public, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer public.Close()
	heard, err := public.SubscribeSync(events.DefaultBrokenLinkSubject)
	if err != nil {
		t.Fatal(err)
	}
	public.Flush()
	for _, site := range []string{"alpha", "beta"} {
		b := openSite(t, url, site)
		if err := linkcheck.ProvisionLinks(ctx, b.JS, linkcheck.LinkResources{Subject: events.DefaultBrokenLinkSubject, Bucket: "builder-link-cache"}); err != nil {
			t.Fatalf("%s: %v", site, err)
		}
		if err := linkcheck.EnsureLinkStream(ctx, b.JS, events.DefaultBrokenLinkSubject); err != nil {
			t.Fatalf("%s: subscriber side: %v", site, err)
		}
		ev := &events.BrokenLink{Header: events.Header{ID: "broken:" + site, BuildID: "b-" + site}, PublishOn: events.DefaultBrokenLinkSubject, URL: "https://gone.example/"}
		if err := Publish(ctx, b.JS, ev); err != nil {
			t.Fatal(err)
		}
		msg, err := heard.NextMsg(5 * time.Second)
		if err != nil {
			t.Fatalf("%s: nothing on the public subject: %v", site, err)
		}
		if msg.Subject != events.DefaultBrokenLinkSubject || msg.Header.Get("Nats-Stream") != site+"_"+linkcheck.LinksStreamName {
			t.Fatalf("%s: heard %s from stream %q", site, msg.Subject, msg.Header.Get("Nats-Stream"))
		}
		got, err := events.DecodeBrokenLink(msg.Data)
		if err != nil || got.BuildID != "b-"+site {
			t.Fatalf("%s: decoded %+v, %v", site, got, err)
		}
		// The site's own stream keeps it for replay, under the subject as
		// configured.
		cons, err := b.JS.OrderedConsumer(ctx, linkcheck.LinksStreamName, jetstream.OrderedConsumerConfig{})
		if err != nil {
			t.Fatal(err)
		}
		kept, err := cons.Next(jetstream.FetchMaxWait(5 * time.Second))
		if err != nil || kept.Subject() != events.DefaultBrokenLinkSubject {
			t.Fatalf("%s: replay: %v", site, err)
		}
	}
}
