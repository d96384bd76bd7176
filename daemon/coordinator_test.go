package daemon

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/natsbroker"
	"github.com/docweave/docweave/report"
)

// gatedBuilds is a stand-in pipeline on a real embedded broker: it answers
// every build.requested with build.finished, but only when the test
// releases it, so the test controls how long a build runs.
type gatedBuilds struct {
	release  chan struct{}
	mu       sync.Mutex
	requests []*events.BuildRequested
}

func (g *gatedBuilds) stage() pipeline.Stage {
	return pipeline.Stage{Name: "discover", Subjects: []string{events.SubjectBuildRequested}, Publishes: []string{events.SubjectBuildFinished}, AckWait: 5 * time.Second,
		Handle: func(ctx context.Context, ev events.Event) ([]events.Event, error) {
			req := ev.(*events.BuildRequested)
			g.mu.Lock()
			g.requests = append(g.requests, req)
			g.mu.Unlock()
			<-g.release
			return []events.Event{&events.BuildFinished{
				Header: events.Header{ID: "build.finished:" + req.BuildID, BuildID: req.BuildID},
				Report: report.Report{BuildID: req.BuildID, Outcome: report.OutcomeSuccess, StaticRendered: true},
			}}, nil
		}}
}

func (g *gatedBuilds) count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.requests)
}

func newCoordinatorFixture(t *testing.T) (*Coordinator, *gatedBuilds, chan BuildRecord) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	b, err := natsbroker.Open(ctx, natsbroker.Options{StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := natsbroker.Provision(ctx, b.JS, 1); err != nil {
		t.Fatal(err)
	}
	g := &gatedBuilds{release: make(chan struct{})}
	done := make(chan struct{})
	go func() { _ = pipeline.NewRunner(b.JS, zerolog.Nop(), []pipeline.Stage{g.stage()}).Run(ctx); close(done) }()
	c, err := NewCoordinator(b, "hash", zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	finished := make(chan BuildRecord, 10)
	c.OnFinished = func(b BuildRecord) { finished <- b }
	t.Cleanup(func() {
		c.Close()
		close(g.release)
		cancel()
		<-done
		b.Close()
	})
	return c, g, finished
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestTriggersDuringABuildCoalesceIntoOneFollowUp(t *testing.T) {
	c, g, finished := newCoordinatorFixture(t)
	ctx := context.Background()
	first, coalesced, err := c.Trigger(ctx, "startup", nil)
	if err != nil || coalesced {
		t.Fatalf("first trigger: %v coalesced=%v", err, coalesced)
	}
	waitFor(t, "the first build to start", func() bool { return g.count() == 1 })

	var follow string
	for i, reason := range []string{"webhook", "cron", "webhook", "admin"} {
		id, coalesced, err := c.Trigger(ctx, reason, []string{"repo" + string(rune('a'+i%2))})
		if err != nil || !coalesced {
			t.Fatalf("trigger during a build: %v coalesced=%v", err, coalesced)
		}
		if follow == "" {
			follow = id
		} else if id != follow {
			t.Fatalf("second follow-up build %s besides %s", id, follow)
		}
	}
	if follow == first {
		t.Fatal("the follow-up reuses the running build's ID")
	}
	if b, _ := c.Build(follow); b.State != StateQueued || b.Reason != "webhook+cron+admin" || len(b.Repositories) != 2 {
		t.Fatalf("follow-up %+v", b)
	}

	g.release <- struct{}{} // the first build ends; the follow-up starts by itself
	if b := <-finished; b.ID != first || b.State != report.OutcomeSuccess {
		t.Fatalf("finished %+v", b)
	}
	waitFor(t, "the follow-up to start", func() bool { return g.count() == 2 })
	g.release <- struct{}{}
	if b := <-finished; b.ID != follow {
		t.Fatalf("finished %s, want the follow-up %s", b.ID, follow)
	}
	waitFor(t, "idle", c.Idle)
	if g.count() != 2 {
		t.Fatalf("%d builds ran for 5 triggers, want 2", g.count())
	}
	recent := c.Recent()
	if len(recent) != 2 || recent[0].ID != follow || recent[0].FinishedAt == nil {
		t.Fatalf("history %+v", recent)
	}
}

func TestStaleBuildDoesNotBlockForever(t *testing.T) {
	c, g, _ := newCoordinatorFixture(t)
	c.Stale = 50 * time.Millisecond
	ctx := context.Background()
	if _, _, err := c.Trigger(ctx, "startup", nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the build to start", func() bool { return g.count() == 1 })
	time.Sleep(60 * time.Millisecond)
	_, coalesced, err := c.Trigger(ctx, "cron", nil)
	if err != nil || coalesced {
		t.Fatalf("after a stale build: %v coalesced=%v", err, coalesced)
	}
}

func TestTriggerAfterCloseIsRefused(t *testing.T) {
	c, _, _ := newCoordinatorFixture(t)
	c.Close()
	if _, _, err := c.Trigger(context.Background(), "cron", nil); err != ErrClosed {
		t.Fatalf("got %v", err)
	}
}

// TestConcurrentTriggersStartOneBuild fires triggers from many goroutines
// at once while nothing runs: exactly one build starts, every other
// trigger coalesces into the single follow-up.
func TestConcurrentTriggersStartOneBuild(t *testing.T) {
	c, g, _ := newCoordinatorFixture(t)
	var wg sync.WaitGroup
	var mu sync.Mutex
	started, ids := 0, map[string]bool{}
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id, coalesced, err := c.Trigger(context.Background(), "webhook", nil)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			ids[id] = true
			if !coalesced {
				started++
			}
		}()
	}
	wg.Wait()
	if started != 1 || len(ids) != 2 {
		t.Fatalf("%d builds started directly and %d build IDs handed out; want 1 and 2 (the running one and its follow-up)", started, len(ids))
	}
	waitFor(t, "the first build to start", func() bool { return g.count() == 1 })
}
