package preview

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
)

// fixedClock is a clock a test moves by hand.
type fixedClock struct{ t time.Time }

func (c *fixedClock) now() time.Time { return c.t }

func testManager(t *testing.T, max int, ttl time.Duration, clock *fixedClock) *Manager {
	t.Helper()
	cfg := config.Default()
	cfg.Repositories = []config.Repository{{Name: "alpha"}, {Name: "beta"}}
	m, err := Open(Options{Builder: &Builder{Config: &cfg}, Dir: t.TempDir(), TTL: ttl, Max: max, Now: clock.now, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Beyond max the preview asked for longest ago goes, its directory with
// it; asking again for one rebuilds it under the same id.
func TestThePreviewAskedForLongestAgoGoesFirst(t *testing.T) {
	clock := &fixedClock{t: time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC)}
	m := testManager(t, 2, time.Hour, clock)
	first, err := m.Request(Request{Repository: "alpha", Ref: "one"})
	if err != nil {
		t.Fatal(err)
	}
	clock.t = clock.t.Add(time.Minute)
	second, _ := m.Request(Request{Repository: "alpha", Ref: "two"})
	clock.t = clock.t.Add(time.Minute)
	again, _ := m.Request(Request{Repository: "alpha", Ref: "one"})
	if again.ID != first.ID {
		t.Fatalf("the same repository and ref got a new id: %s, then %s", first.ID, again.ID)
	}
	clock.t = clock.t.Add(time.Minute)
	third, _ := m.Request(Request{Repository: "beta", Ref: "main"})
	if _, ok := m.Get(second.ID); ok {
		t.Error("the preview asked for longest ago is still there beyond max")
	}
	if _, err := os.Stat(filepath.Join(m.opts.Dir, second.ID)); !os.IsNotExist(err) {
		t.Errorf("its directory stays: %v", err)
	}
	for _, id := range []string{first.ID, third.ID} {
		if _, ok := m.Get(id); !ok {
			t.Errorf("preview %s is gone", id)
		}
	}
	m.opts.PublicURL = "https://docs.example.com/"
	if got := m.URL(first.ID); got != "https://docs.example.com/previews/"+first.ID+"/" {
		t.Errorf("URL %s", got)
	}
	if first.LinksBroken == nil {
		t.Error("a preview being built lists its broken links as null, not []")
	}
	if _, err := m.Request(Request{Repository: "gamma", Ref: "main"}); err == nil {
		t.Error("a repository the configuration does not have was accepted")
	}
}

// A preview expires ttl after it was last asked for; a restart keeps the
// previews recorded, and removes a directory without a whole record.
func TestPreviewsExpireAndSurviveARestart(t *testing.T) {
	clock := &fixedClock{t: time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC)}
	m := testManager(t, 5, time.Hour, clock)
	old, _ := m.Request(Request{Repository: "alpha", Ref: "old"})
	clock.t = clock.t.Add(50 * time.Minute)
	kept, _ := m.Request(Request{Repository: "beta", Ref: "kept"})
	clock.t = clock.t.Add(20 * time.Minute)
	m.expire()
	if _, ok := m.Get(old.ID); ok {
		t.Error("a preview older than the ttl was kept")
	}
	if _, ok := m.Get(kept.ID); !ok {
		t.Fatal("a preview within the ttl was removed")
	}
	half := filepath.Join(m.opts.Dir, "alpha-0123456789")
	if err := os.MkdirAll(half, 0o755); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(m.opts.Dir, "not-ours")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	again, err := Open(m.opts)
	if err != nil {
		t.Fatal(err)
	}
	if st, ok := again.Get(kept.ID); !ok || st.Ref != "kept" || st.State != StateBuilding {
		t.Errorf("after a restart: %+v, %v", st, ok)
	}
	if _, err := os.Stat(half); !os.IsNotExist(err) {
		t.Error("a preview directory without a record was kept")
	}
	if _, err := os.Stat(other); err != nil {
		t.Error("a directory that is not a preview's was removed")
	}
}

func TestSummaryIsOneLine(t *testing.T) {
	st := Status{State: StateReady, Changes: &Changes{Added: []string{"/a/"}, Changed: []string{"/b/", "/c/"}}, LinksBroken: []BrokenLink{{}}}
	if got, want := st.Summary(), "1 page added, 2 changed, 0 removed; 1 link broken"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}

// The same head commit again (a request's title edited) builds nothing
// and extends the preview's life; another commit builds it again.
func TestTheSameHeadIsNotBuiltAgain(t *testing.T) {
	clock := &fixedClock{t: time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC)}
	m := testManager(t, 5, time.Hour, clock)
	req := Request{Repository: "alpha", Ref: "topic", Commit: "c1", Key: "github:alpha#3"}
	st, _ := m.Request(req)
	m.mu.Lock()
	e := m.previews[st.ID]
	e.Status.State, e.Status.Commit, e.queued = StateReady, "c1", false
	gen := e.Generation
	m.mu.Unlock()
	<-m.queue

	clock.t = clock.t.Add(30 * time.Minute)
	again, err := m.Request(req)
	if err != nil || again.State != StateReady || !again.ExpiresAt.Equal(clock.t.Add(time.Hour)) || len(m.queue) != 0 || e.Generation != gen {
		t.Fatalf("the same head: %+v, %v; queued %d", again, err, len(m.queue))
	}
	req.Commit = "c2"
	if next, _ := m.Request(req); next.State != StateBuilding || len(m.queue) != 1 {
		t.Fatalf("a new head: %+v; queued %d", next, len(m.queue))
	}
}
