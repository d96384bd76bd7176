package verifylinks

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/linkcheck"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/pipeline/natsbroker"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/spill"
	"github.com/docweave/docweave/stages/finish"
)

// harness runs the verifylinks stage alone on an embedded broker, against a
// small rendered site whose external links point at a loopback server.
type harness struct {
	t         *testing.T
	broker    *natsbroker.Broker
	cfg       *config.Config
	stage     *stage
	pipelined pipeline.Stage // the stage as the runner runs it
	server    *httptest.Server
	requests  *counter
	delivered chan pipeline.Delivery
}

type counter struct {
	mu sync.Mutex
	n  int
}

func (c *counter) get() int { c.mu.Lock(); defer c.mu.Unlock(); return c.n }

const testSubject = "team.docs.links.broken"

func newHarness(t *testing.T, mutate func(*config.Config)) *harness {
	t.Helper()
	return newHarnessWith(t, mutate, nil)
}

// newHarnessWith is newHarness with a hook that completes the stage's
// dependencies once the broker is up (a shared artifact store, say).
func newHarnessWith(t *testing.T, mutate func(*config.Config), deps func(*natsbroker.Broker, *pipeline.Deps)) *harness {
	t.Helper()
	h := &harness{t: t, requests: &counter{}, delivered: make(chan pipeline.Delivery, 64)}
	h.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.requests.mu.Lock()
		h.requests.n++
		h.requests.mu.Unlock()
		switch r.URL.Path {
		case "/ok":
		case "/manual":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<h1 id="manual">Manual</h1><h2 id="present">Here</h2>`))
		case "/gone":
			w.WriteHeader(http.StatusGone)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(h.server.Close)

	cfg := config.Default()
	cfg.Mode = config.ModeDaemon
	cfg.Output.Directory = t.TempDir()
	cfg.Repositories = []config.Repository{{Name: "handbook", URL: "https://forge.example.org/o/handbook.git", Paths: []string{"docs"}}}
	lv := &cfg.Daemon.LinkVerification
	lv.Subject = testSubject
	lv.KVBucket = "test-link-cache"
	lv.RateLimitDelay = 0
	lv.RequestTimeout = 2 * time.Second
	if mutate != nil {
		mutate(&cfg)
	}
	h.cfg = &cfg
	writeFiles(t, cfg.Output.Directory, map[string]string{
		"public/index.html": `<a href="/docs/handbook/">handbook</a>`,
		"public/docs/handbook/index.html": `<h1 id="top-title">Handbook</h1><a href="guide/">guide</a>
<a href="` + h.server.URL + `/ok">ok</a> <a href="` + h.server.URL + `/missing">missing</a>`,
		"public/docs/handbook/guide/index.html": `<a href="../#top-title">up</a> <a href="../#no-such-id">bad anchor</a>
<a href="` + h.server.URL + `/missing">missing</a> <a href="` + h.server.URL + `/gone">gone</a>`,
	})

	ctx := context.Background()
	b, err := natsbroker.Open(ctx, natsbroker.Options{StoreDir: filepath.Join(t.TempDir(), "nats"), Name: "verifylinks-test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	h.broker = b
	if err := natsbroker.Provision(ctx, b.JS, 1); err != nil {
		t.Fatal(err)
	}
	d := pipeline.Deps{Config: h.cfg, Log: zerolog.Nop()}
	if deps != nil {
		deps(b, &d)
	}
	if d.Store == nil {
		// The documentation tree the site was rendered from, as the
		// acquisition left it in the artifact store.
		store, err := artifact.NewLocal(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		src := t.TempDir()
		writeFiles(t, src, map[string]string{"_index.md": "", "guide.md": ""})
		ref, err := store.PutTree(ctx, []artifact.File{{Rel: "_index.md", Source: filepath.Join(src, "_index.md")}, {Rel: "guide.md", Source: filepath.Join(src, "guide.md")}})
		if err != nil || string(ref) != handbookTree() {
			t.Fatalf("handbook tree %s (want %s): %v", ref, handbookTree(), err)
		}
		d.Store = store
	}
	s, st, err := newStage(d)
	if err != nil {
		t.Fatal(err)
	}
	s.options = func(o linkcheck.Options) linkcheck.Options {
		o.TransientRetryDelay = 10 * time.Millisecond
		return o
	}
	h.stage, h.pipelined = s, st
	runner := pipeline.NewRunner(b.JS, zerolog.Nop(), []pipeline.Stage{st})
	runner.Observe = func(d pipeline.Delivery) { h.delivered <- d }
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- runner.Run(runCtx) }()
	t.Cleanup(func() { stop(); <-done })
	return h
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// writeReport puts the report fingerprint would have written for a build.
func (h *harness) writeReport(buildID string) {
	h.t.Helper()
	rep := report.Report{SchemaVersion: report.SchemaVersion, BuildID: buildID, Outcome: report.OutcomeSuccess, StaticRendered: true}
	if err := finish.WriteReport(h.cfg.Output.Directory, &rep); err != nil {
		h.t.Fatal(err)
	}
}

// rendered is the site.rendered message of a build, its outcome list (the
// handbook's, from tree) stored aside in the stage's store.
func (h *harness) rendered(buildID string) *events.SiteRendered {
	return h.renderedFrom(buildID, handbookTree())
}

func (h *harness) renderedFrom(buildID, tree string) *events.SiteRendered {
	h.t.Helper()
	outcomes := []events.RepoOutcome{{Repository: "handbook", Forge: "forgejo", ContentPath: "handbook", Tree: tree}}
	ref, err := spill.PutList(context.Background(), h.stage.store, h.t.TempDir(), outcomes)
	if err != nil {
		h.t.Fatal(err)
	}
	ev := rendered(buildID)
	ev.OutcomesRef, ev.Outcomes = ref, len(outcomes)
	return ev
}

// rendered is the site.rendered message of a build, without its lists.
func rendered(buildID string) *events.SiteRendered {
	return &events.SiteRendered{
		Header: events.Header{ID: "site.rendered:" + buildID, BuildID: buildID},
		OK:     true, Site: "sha256:" + buildID, Pages: 2,
	}
}

// handbookTree is the reference of the handbook's documentation tree: two
// empty pages, _index.md and guide.md.
func handbookTree() string {
	empty := sha256.Sum256(nil)
	sum := hex.EncodeToString(empty[:])
	return string(artifact.TreeRef([]artifact.Entry{{Rel: "_index.md", Hash: sum}, {Rel: "guide.md", Hash: sum}}))
}

// publish sends a message and waits until the stage has handled it.
func (h *harness) publish(ev events.Event) pipeline.Delivery {
	h.t.Helper()
	if err := pipeline.Publish(context.Background(), h.broker.JS, ev); err != nil {
		h.t.Fatal(err)
	}
	select {
	case d := <-h.delivered:
		if d.MessageID != ev.Head().ID {
			h.t.Fatalf("handled %s, expected %s", d.MessageID, ev.Head().ID)
		}
		if d.Outcome != pipeline.OutcomeAcked {
			h.t.Fatalf("%s: %s: %v", d.MessageID, d.Outcome, d.Err)
		}
		return d
	case <-time.After(30 * time.Second):
		h.t.Fatalf("%s was not handled", ev.Head().ID)
		return pipeline.Delivery{}
	}
}

// brokenEvents replays the broken-link stream from its start, as a
// subscriber that starts late would.
func (h *harness) brokenEvents() []*events.BrokenLink {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	stream, err := h.broker.JS.Stream(ctx, linkcheck.LinksStreamName)
	if err != nil {
		h.t.Fatal(err)
	}
	info, err := stream.Info(ctx)
	if err != nil {
		h.t.Fatal(err)
	}
	if info.State.Msgs == 0 {
		return nil
	}
	cons, err := stream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{FilterSubjects: []string{testSubject}})
	if err != nil {
		h.t.Fatal(err)
	}
	var out []*events.BrokenLink
	for uint64(len(out)) < info.State.Msgs {
		msg, err := cons.Next(jetstream.FetchMaxWait(5 * time.Second))
		if err != nil {
			h.t.Fatalf("after %d of %d events: %v", len(out), info.State.Msgs, err)
		}
		ev, err := events.DecodeBrokenLink(msg.Data())
		if err != nil {
			h.t.Fatal(err)
		}
		if msg.Headers().Get(jetstream.MsgIDHeader) != ev.ID {
			h.t.Fatalf("Nats-Msg-Id %q differs from the event id %q", msg.Headers().Get(jetstream.MsgIDHeader), ev.ID)
		}
		out = append(out, ev)
	}
	return out
}

// verified returns the links.verified message of a build, if published.
func (h *harness) verified(buildID string) *events.LinksVerified {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	stream, err := h.broker.JS.Stream(ctx, natsbroker.StreamName)
	if err != nil {
		h.t.Fatal(err)
	}
	msg, err := stream.GetLastMsgForSubject(ctx, events.SubjectLinksVerified)
	if err != nil {
		return nil
	}
	ev, err := events.Decode(msg.Subject, msg.Data)
	if err != nil {
		h.t.Fatal(err)
	}
	if ev.Head().BuildID != buildID {
		return nil
	}
	return ev.(*events.LinksVerified)
}
