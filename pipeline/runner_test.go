package pipeline

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline/natsbroker"
)

// runStages starts a runner for stages on b until the test ends.
func runStages(t *testing.T, b *natsbroker.Broker, stages ...Stage) *Runner {
	t.Helper()
	return runStagesWith(t, b, nil, stages...)
}

// runStagesWith is runStages with a chance to configure the runner before
// it starts.
func runStagesWith(t *testing.T, b *natsbroker.Broker, configure func(*Runner), stages ...Stage) *Runner {
	t.Helper()
	r := NewRunner(b.JS, zerolog.Nop(), stages)
	if configure != nil {
		configure(r)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = r.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return r
}

// collect subscribes (core NATS) to subject and returns a channel of events.
func collect(t *testing.T, b *natsbroker.Broker, subject string) <-chan events.Event {
	t.Helper()
	ch := make(chan events.Event, 64)
	sub, err := b.Subscribe(subject, func(m *nats.Msg) {
		ev, err := events.Decode(m.Subject, m.Data)
		if err == nil {
			ch <- ev
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sub.Unsubscribe() })
	return ch
}

func waitEvent(t *testing.T, ch <-chan events.Event) events.Event {
	t.Helper()
	select {
	case ev := <-ch:
		return ev
	case <-time.After(15 * time.Second):
		t.Fatal("no event within 15s")
		return nil
	}
}

func request(id string) *events.BuildRequested {
	return &events.BuildRequested{Header: events.Header{ID: id, BuildID: "b-" + id}, Reason: "test"}
}

func TestRunnerAcksAndPublishesNextEvents(t *testing.T) {
	b := openTestBroker(t)
	out := collect(t, b, events.SubjectRepoClone)
	runStages(t, b, Stage{
		Name: "discover", Subjects: []string{events.SubjectBuildRequested}, Publishes: []string{events.SubjectRepoClone},
		Handle: func(_ context.Context, ev events.Event) ([]events.Event, error) {
			h := ev.Head()
			return []events.Event{&events.RepoClone{Header: events.Header{ID: "clone:" + h.BuildID, BuildID: h.BuildID}, Repository: "r1"}}, nil
		},
	})
	if err := Publish(context.Background(), b.JS, request("1")); err != nil {
		t.Fatal(err)
	}
	got := waitEvent(t, out).(*events.RepoClone)
	if got.Repository != "r1" || got.BuildID != "b-1" {
		t.Fatalf("unexpected %+v", got)
	}
	waitConsumerIdle(t, b, "discover")
}

// waitConsumerIdle waits until a stage's consumer has nothing pending or
// unacknowledged, which proves the runner acknowledged what it handled.
func waitConsumerIdle(t *testing.T, b *natsbroker.Broker, stage string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		c, err := b.JS.Consumer(context.Background(), natsbroker.StreamName, ConsumerName(stage))
		if err == nil {
			info, err := c.Info(context.Background())
			if err == nil && info.NumPending == 0 && info.NumAckPending == 0 && info.Delivered.Consumer > 0 {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("consumer of %s never became idle", stage)
}

func TestRunnerRedeliversAfterTransientFailure(t *testing.T) {
	b := openTestBroker(t)
	var calls atomic.Int32
	done := make(chan uint64, 1)
	r := runStages(t, b, Stage{
		Name: "discover", Subjects: []string{events.SubjectBuildRequested},
		Handle: func(context.Context, events.Event) ([]events.Event, error) {
			if calls.Add(1) == 1 {
				return nil, Transient(errors.New("broker hiccup"), 50*time.Millisecond)
			}
			return nil, nil
		},
	})
	var mu sync.Mutex
	r.Observe = func(d Delivery) {
		mu.Lock()
		defer mu.Unlock()
		if d.Outcome == OutcomeAcked {
			done <- d.Attempt
		}
	}
	if err := Publish(context.Background(), b.JS, request("2")); err != nil {
		t.Fatal(err)
	}
	select {
	case attempt := <-done:
		if attempt != 2 {
			t.Fatalf("acked on attempt %d, want 2", attempt)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("message never acknowledged after the nak")
	}
	if calls.Load() != 2 {
		t.Fatalf("handler called %d times, want 2", calls.Load())
	}
}

func TestRunnerTerminatesPoisonMessagesAndRecordsThem(t *testing.T) {
	b := openTestBroker(t)
	failed := collect(t, b, events.SubjectStageFailed)
	var calls atomic.Int32
	runStages(t, b, Stage{
		Name: "discover", Subjects: []string{events.SubjectBuildRequested},
		Handle: func(context.Context, events.Event) ([]events.Event, error) {
			calls.Add(1)
			return nil, Permanentf("configuration names no repositories")
		},
	})
	// A message that cannot be decoded at all is poison too.
	if _, err := b.JS.PublishMsg(context.Background(), &nats.Msg{Subject: events.SubjectBuildRequested, Data: []byte("{not json")}); err != nil {
		t.Fatal(err)
	}
	if err := Publish(context.Background(), b.JS, request("3")); err != nil {
		t.Fatal(err)
	}
	var reasons []string
	for i := 0; i < 2; i++ {
		rec := waitEvent(t, failed).(*events.StageFailed)
		if rec.Stage != "discover" || rec.Reason == "" {
			t.Fatalf("record without stage or reason: %+v", rec)
		}
		reasons = append(reasons, rec.Reason)
	}
	waitConsumerIdle(t, b, "discover")
	if calls.Load() != 1 {
		t.Fatalf("permanent failure handled %d times, want once (no redelivery)", calls.Load())
	}
	t.Logf("recorded reasons: %q", reasons)
}

func TestRunnerGivesUpAfterMaxDeliver(t *testing.T) {
	b := openTestBroker(t)
	failed := collect(t, b, events.SubjectStageFailed)
	var calls atomic.Int32
	runStages(t, b, Stage{
		Name: "discover", Subjects: []string{events.SubjectBuildRequested}, MaxDeliver: 3,
		Handle: func(context.Context, events.Event) ([]events.Event, error) {
			calls.Add(1)
			return nil, Transient(errors.New("still down"), 10*time.Millisecond)
		},
	})
	if err := Publish(context.Background(), b.JS, request("4")); err != nil {
		t.Fatal(err)
	}
	rec := waitEvent(t, failed).(*events.StageFailed)
	if rec.Deliveries != 3 || calls.Load() != 3 {
		t.Fatalf("gave up after %d deliveries (%d calls), want 3", rec.Deliveries, calls.Load())
	}
}

// TestRunnerRunsOnlyItsSubset runs the first stage in one runner and shows
// the second stage's messages wait in its durable consumer until a runner
// for it starts — as when stages live in separate processes.
func TestRunnerRunsOnlyItsSubset(t *testing.T) {
	b := openTestBroker(t)
	first := Stage{
		Name: "discover", Subjects: []string{events.SubjectBuildRequested}, Publishes: []string{events.SubjectRepoClone},
		Handle: func(_ context.Context, ev events.Event) ([]events.Event, error) {
			h := ev.Head()
			return []events.Event{&events.RepoClone{Header: events.Header{ID: "clone:" + h.BuildID, BuildID: h.BuildID}, Repository: "r"}}, nil
		},
	}
	handled := make(chan string, 1)
	second := Stage{
		Name: "clone", Subjects: []string{events.SubjectRepoClone},
		Handle: func(_ context.Context, ev events.Event) ([]events.Event, error) {
			handled <- ev.(*events.RepoClone).Repository
			return nil, nil
		},
	}
	// natsbroker.Provision the second stage's consumer as a full deployment would, but
	// do not run it yet.
	if _, err := ProvisionConsumer(context.Background(), b.JS, second); err != nil {
		t.Fatal(err)
	}
	runStages(t, b, first)
	if err := Publish(context.Background(), b.JS, request("5")); err != nil {
		t.Fatal(err)
	}
	waitConsumerIdle(t, b, "discover")
	select {
	case <-handled:
		t.Fatal("a stage outside the subset handled a message")
	case <-time.After(200 * time.Millisecond):
	}
	c, err := b.JS.Consumer(context.Background(), natsbroker.StreamName, ConsumerName("clone"))
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.Info(context.Background())
	if err != nil || info.NumPending != 1 {
		t.Fatalf("clone consumer pending = %d (%v), want 1 waiting message", info.NumPending, err)
	}
	runStages(t, b, second)
	select {
	case repo := <-handled:
		if repo != "r" {
			t.Fatalf("handled %q", repo)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the waiting message was not handled once its stage started")
	}
}

func TestPublishDeduplicatesByID(t *testing.T) {
	b := openTestBroker(t)
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		if err := Publish(ctx, b.JS, request("same")); err != nil {
			t.Fatal(err)
		}
	}
	s, err := b.JS.Stream(ctx, natsbroker.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(ctx)
	if err != nil || info.State.Msgs != 1 {
		t.Fatalf("stream holds %d messages (%v), want 1", info.State.Msgs, err)
	}
}

// TestRunnerRefusesUndeclaredMessages: a stage that returns a message of a
// subject it did not declare has the delivery terminated, with a
// stage.failed record naming the subject, and nothing is published.
func TestRunnerRefusesUndeclaredMessages(t *testing.T) {
	b := openTestBroker(t)
	clones := collect(t, b, events.SubjectRepoClone)
	failed := collect(t, b, events.SubjectStageFailed)
	runStages(t, b, Stage{
		Name: "discover", Subjects: []string{events.SubjectBuildRequested}, Publishes: []string{events.SubjectBuildFinished},
		Handle: func(_ context.Context, ev events.Event) ([]events.Event, error) {
			h := ev.Head()
			return []events.Event{&events.RepoClone{Header: events.Header{ID: "clone:" + h.BuildID, BuildID: h.BuildID}, Repository: "r1"}}, nil
		},
	})
	if err := Publish(context.Background(), b.JS, request("1")); err != nil {
		t.Fatal(err)
	}
	rec := waitEvent(t, failed).(*events.StageFailed)
	if rec.Stage != "discover" || !strings.Contains(rec.Reason, events.SubjectRepoClone) {
		t.Fatalf("stage.failed %+v", rec)
	}
	select {
	case ev := <-clones:
		t.Fatalf("an undeclared message was published: %+v", ev)
	case <-time.After(300 * time.Millisecond):
	}
}
