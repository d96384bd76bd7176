package pipeline

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/linkcheck"
)

// openSite connects to a shared test server as one site and provisions it.
func openSite(t *testing.T, url, site string) *Broker {
	t.Helper()
	b, err := OpenBroker(context.Background(), BrokerOptions{URL: url, Name: site, Site: site})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	if err := Provision(context.Background(), b.JS, 1); err != nil {
		t.Fatalf("provision %s: %v", site, err)
	}
	return b
}

// Two sites on one server keep apart: each stage sees only its own site's
// messages, and the broker holds only site-named resources.
func TestSitesOnOneBrokerDoNotSeeEachOther(t *testing.T) {
	srv := startTestServer(t, "", "")
	ctx := context.Background()
	sites := map[string]*Broker{"alpha": openSite(t, srv.ClientURL(), "alpha"), "beta": openSite(t, srv.ClientURL(), "beta")}
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
	// Seen through the scope, the site's own names only, as code writes them.
	var own []string
	for n := range sites["beta"].JS.StreamNames(ctx).Name() {
		own = append(own, n)
	}
	slices.Sort(own)
	if want := []string{StreamName, "KV_" + buildstate.BuildsBucket, "KV_" + buildstate.StateBucket}; !slices.Equal(own, want) {
		t.Fatalf("beta sees streams %v, want %v", own, want)
	}
	st, err := sites["beta"].JS.Stream(ctx, StreamName)
	if err != nil {
		t.Fatal(err)
	}
	if c := st.CachedInfo().Config; c.Name != StreamName || !slices.Equal(c.Subjects, []string{events.AllSubjects}) {
		t.Fatalf("beta's stream reads %s %v through the scope", c.Name, c.Subjects)
	}
	var buckets []string
	for n := range sites["beta"].JS.KeyValueStoreNames(ctx).Name() {
		buckets = append(buckets, n)
	}
	slices.Sort(buckets)
	if !slices.Equal(buckets, []string{buildstate.BuildsBucket, buildstate.StateBucket}) {
		t.Fatalf("beta sees buckets %v", buckets)
	}
	var statuses []string
	for st := range sites["beta"].JS.KeyValueStores(ctx).Status() {
		statuses = append(statuses, st.Bucket())
	}
	slices.Sort(statuses)
	if !slices.Equal(statuses, []string{buildstate.BuildsBucket, buildstate.StateBucket}) {
		t.Fatalf("beta's bucket statuses name %v", statuses)
	}
	if _, err := sites["alpha"].JS.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: "things"}); err != nil {
		t.Fatal(err)
	}
	for st := range sites["beta"].JS.ObjectStores(ctx).Status() {
		t.Fatalf("beta sees alpha's object store %s", st.Bucket())
	}
	for st := range sites["alpha"].JS.ObjectStores(ctx).Status() {
		if st.Bucket() != "things" {
			t.Fatalf("alpha's object store reads %s", st.Bucket())
		}
	}
}

// Every site publishes its broken-link events on the one public subject,
// without two streams claiming it.
func TestSitesShareThePublicBrokenLinkSubject(t *testing.T) {
	srv := startTestServer(t, "", "")
	ctx := context.Background()
	public, err := nats.Connect(srv.ClientURL())
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
		b := openSite(t, srv.ClientURL(), site)
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
