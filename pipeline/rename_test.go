package pipeline

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline/natsbroker"
)

// TestRenamedStageTakesOverItsFormerConsumer: a deployment ran a stage
// under its former name, which acknowledged one build's message and left a
// second one pending. The stage, renamed, provisions its consumer: it
// handles exactly the pending message (not the whole history again, not
// nothing), and the former consumer is gone.
func TestRenamedStageTakesOverItsFormerConsumer(t *testing.T) {
	ctx := context.Background()
	b := openTestBroker(t)
	handled := make(chan string, 8)
	handle := func(_ context.Context, ev events.Event) ([]events.Event, error) {
		handled <- ev.Head().BuildID
		return nil, nil
	}
	former := Stage{Name: "oldname", Subjects: []string{events.SubjectBuildRequested}, AckWait: time.Minute, Handle: handle}
	if _, err := ProvisionConsumer(ctx, b.JS, former); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"20261126t100000.000001-done", "20261126t100000.000002-pending"} {
		if err := Publish(ctx, b.JS, &events.BuildRequested{Header: events.Header{ID: id, BuildID: id}}); err != nil {
			t.Fatal(err)
		}
	}
	// The former consumer acknowledges the first message only.
	cons, err := b.JS.Consumer(ctx, natsbroker.StreamName, ConsumerName(former.Name))
	if err != nil {
		t.Fatal(err)
	}
	batch, err := cons.Fetch(1, jetstream.FetchMaxWait(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for msg := range batch.Messages() {
		if err := msg.DoubleAck(ctx); err != nil {
			t.Fatal(err)
		}
	}

	renamed := Stage{Name: "newname", FormerNames: []string{former.Name}, Subjects: former.Subjects, AckWait: time.Minute, Handle: handle}
	if _, err := ProvisionConsumer(ctx, b.JS, renamed); err != nil {
		t.Fatal(err)
	}
	if _, err := b.JS.Consumer(ctx, natsbroker.StreamName, ConsumerName(former.Name)); !errors.Is(err, jetstream.ErrConsumerNotFound) {
		t.Fatalf("the former consumer is still there (err %v)", err)
	}
	runStagesWith(t, b, nil, renamed)
	select {
	case id := <-handled:
		if id != "20261126t100000.000002-pending" {
			t.Fatalf("the renamed stage handled %s, a message its former consumer had acknowledged", id)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the message the former consumer left pending was not handled")
	}
	waitConsumerIdle(t, b, renamed.Name)
	select {
	case id := <-handled:
		t.Fatalf("handled %s as well", id)
	default:
	}
}

// TestFormerStageNamesResolve: the former names of the renamed stages
// still name them, and naming a stage twice constructs it once.
func TestFormerStageNamesResolve(t *testing.T) {
	Register("test-renamed", func(Deps) (Stage, error) {
		return Stage{Name: "test-renamed", Subjects: []string{events.SubjectBuildRequested}}, nil
	}, "test-former")
	if got, renamed := CurrentName("test-former"); got != "test-renamed" || !renamed {
		t.Fatalf("CurrentName(test-former) = %q, %v", got, renamed)
	}
	if got, renamed := CurrentName("test-renamed"); got != "test-renamed" || renamed {
		t.Fatalf("CurrentName(test-renamed) = %q, %v", got, renamed)
	}
	stages, err := NewStages([]string{"test-former", "test-renamed"}, Deps{})
	if err != nil {
		t.Fatal(err)
	}
	if len(stages) != 1 || stages[0].Name != "test-renamed" || len(stages[0].FormerNames) != 1 || stages[0].FormerNames[0] != "test-former" {
		t.Fatalf("stages = %+v", stages)
	}
}
