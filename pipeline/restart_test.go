package pipeline

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline/natsbroker"
)

// TestStaleWorkOfAKilledProcessIsDroppedAtOnce: a process received two
// messages of an old build and died without acknowledging them. After
// RedeliverNow, a runner that drops builds before its start gets them at
// once — long before their ack wait — and drops them; a message of a new
// build is handled.
func TestStaleWorkOfAKilledProcessIsDroppedAtOnce(t *testing.T) {
	ctx := context.Background()
	url := startSharedBroker(t)
	b := openSite(t, url, "")
	handled := make(chan string, 8)
	st := Stage{Name: "discover", Subjects: []string{events.SubjectBuildRequested}, AckWait: time.Minute,
		Publishes: []string{events.SubjectBuildFinished},
		Handle: func(_ context.Context, ev events.Event) ([]events.Event, error) {
			handled <- ev.Head().BuildID
			return nil, nil
		}}
	if _, err := ProvisionConsumer(ctx, b.JS, st); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"20261123t100000.000001-old1", "20261123t100000.000002-old2"} {
		if err := Publish(ctx, b.JS, &events.BuildRequested{Header: events.Header{ID: id, BuildID: id}}); err != nil {
			t.Fatal(err)
		}
	}
	// The process that dies: fetches both, acknowledges neither.
	dead, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	djs, _ := jetstream.New(dead)
	cons, err := djs.Consumer(ctx, natsbroker.StreamName, ConsumerName(st.Name))
	if err != nil {
		t.Fatal(err)
	}
	batch, err := cons.Fetch(2, jetstream.FetchMaxWait(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	got := 0
	for range batch.Messages() {
		got++
	}
	if got != 2 {
		t.Fatalf("the dying process fetched %d messages", got)
	}
	dead.Close()

	n, err := RedeliverNow(ctx, b.JS, st)
	if err != nil || n != 2 {
		t.Fatalf("RedeliverNow: %d, %v; want the 2 held messages", n, err)
	}
	runStagesWith(t, b, func(r *Runner) { r.DropBuildsBefore = "20261123t110000.000000-start" }, st)
	newer := "20261123t120000.000000-new"
	if err := Publish(ctx, b.JS, &events.BuildRequested{Header: events.Header{ID: newer, BuildID: newer}}); err != nil {
		t.Fatal(err)
	}
	select {
	case id := <-handled:
		if id != newer {
			t.Fatalf("handled %s, a message of a build from before the start", id)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the new build's message was not handled")
	}
	waitConsumerIdle(t, b, st.Name)
	select {
	case id := <-handled:
		t.Fatalf("handled %s as well", id)
	default:
	}
	// Provisioning again keeps the consumer where RedeliverNow put it.
	if _, err := ProvisionConsumer(ctx, b.JS, st); err != nil {
		t.Fatalf("provisioning after RedeliverNow: %v", err)
	}
}
