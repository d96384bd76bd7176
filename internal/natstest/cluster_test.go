package natstest

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

func connect(t *testing.T, urls string) jetstream.JetStream {
	t.Helper()
	nc, err := nats.Connect(urls, nats.MaxReconnects(-1), nats.ReconnectWait(50*time.Millisecond))
	if err != nil {
		t.Fatalf("connect to %s: %v", urls, err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

func TestStartClusterFormsAJetStreamClusterOfDistinctNodes(t *testing.T) {
	c := StartCluster(t, 3)
	urls := strings.Split(c.URLs(), ",")
	if len(urls) != 3 {
		t.Fatalf("URLs() = %q, want 3 comma-separated URLs", c.URLs())
	}
	names := map[string]bool{}
	seenURL := map[string]bool{}
	for i, u := range urls {
		if u != c.ClientURL(i) {
			t.Errorf("URLs()[%d] = %q, ClientURL(%d) = %q", i, u, i, c.ClientURL(i))
		}
		if !strings.HasPrefix(u, "nats://127.0.0.1:") || seenURL[u] {
			t.Errorf("client URL %q: want a distinct nats://127.0.0.1:<port>", u)
		}
		seenURL[u] = true
		srv := c.Server(i)
		if srv == nil || !srv.JetStreamIsClustered() {
			t.Fatalf("node %d: want a running, clustered JetStream server", i)
		}
		if srv.ClusterName() != c.Name() {
			t.Errorf("node %d cluster name %q, want %q", i, srv.ClusterName(), c.Name())
		}
		if srv.NumRoutes() < 2 {
			t.Errorf("node %d has %d routes, want routes to both other nodes", i, srv.NumRoutes())
		}
		names[srv.Name()] = true
	}
	if len(names) != 3 {
		t.Errorf("server names %v: want 3 distinct names", names)
	}
	leaders := 0
	for i := range 3 {
		if c.Server(i).JetStreamIsLeader() {
			leaders++
		}
	}
	if leaders != 1 {
		t.Errorf("%d meta leaders, want exactly 1", leaders)
	}
}

// TestReplicatedStreamSurvivesTheLossOfANode is the property docweave's
// scale-out guide promises: with R3 streams, losing one of three nodes (here
// the stream's leader, the hardest case) loses no message and does not stop
// publishing; the node rejoins on the same URL and catches up.
func TestReplicatedStreamSurvivesTheLossOfANode(t *testing.T) {
	c := StartCluster(t, 3)
	js := connect(t, c.URLs())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	_, err := js.CreateStream(ctx, jetstream.StreamConfig{
		Name: "SURVIVE", Subjects: []string{"survive.>"}, Replicas: 3, Storage: jetstream.FileStorage,
	})
	if err != nil {
		t.Fatalf("create R3 stream: %v", err)
	}
	// A publish sent while the client reconnects, or before the stream
	// has a new leader, gets no answer: like the pipeline's publishers, try
	// again after a short wait. The message ID keeps the retries from
	// storing a message twice.
	publish := func(from, to int) {
		t.Helper()
		for i := from; i < to; i++ {
			for {
				pctx, pcancel := context.WithTimeout(ctx, 2*time.Second)
				_, err := js.Publish(pctx, "survive.msg", []byte(fmt.Sprintf("m%d", i)), jetstream.WithMsgID(fmt.Sprintf("id-%d", i)))
				pcancel()
				if err == nil {
					break
				}
				if ctx.Err() != nil {
					t.Fatalf("publish message %d: %v", i, err)
				}
				time.Sleep(pollInterval)
			}
		}
	}
	publish(0, 10)

	leader := -1
	for i := range 3 {
		if c.Server(i).JetStreamIsStreamLeader("$G", "SURVIVE") {
			leader = i
		}
	}
	if leader < 0 {
		t.Fatal("no node leads stream SURVIVE")
	}
	leaderURL := c.ClientURL(leader)
	c.Shutdown(leader)
	if c.Server(leader) != nil {
		t.Fatalf("node %d still reported running after Shutdown", leader)
	}
	c.WaitForJetStream()

	publish(10, 20)
	publish(15, 20) // re-publishes with the same IDs are de-duplicated, still on two nodes
	assertMessages(ctx, t, js, 20)

	c.Restart(leader)
	if got := c.ClientURL(leader); got != leaderURL {
		t.Errorf("restarted node's URL %q, want its old URL %q", got, leaderURL)
	}
	deadline := time.Now().Add(20 * time.Second)
	for !c.Server(leader).JetStreamIsStreamCurrent("$G", "SURVIVE") {
		if time.Now().After(deadline) {
			t.Fatalf("restarted node %d did not catch up with stream SURVIVE", leader)
		}
		time.Sleep(pollInterval)
	}
	// Read through the restarted node alone: it holds all messages again.
	assertMessages(ctx, t, connect(t, leaderURL), 20)
}

func assertMessages(ctx context.Context, t *testing.T, js jetstream.JetStream, want int) {
	t.Helper()
	stream, err := js.Stream(ctx, "SURVIVE")
	if err != nil {
		t.Fatalf("stream info: %v", err)
	}
	if got := stream.CachedInfo().State.Msgs; got != uint64(want) {
		t.Fatalf("stream holds %d messages, want %d", got, want)
	}
	// Right after a node is lost, a new consumer's first pull can get "no
	// responders" while its leader is elected: read again until ctx ends,
	// as the pipeline's consumers do. What a read returns is still checked
	// in full.
	var got []string
	var readErr error
	for {
		got, readErr = readAll(ctx, stream, want)
		if len(got) == want || ctx.Err() != nil {
			break
		}
		time.Sleep(pollInterval)
	}
	if len(got) != want {
		t.Fatalf("read %d messages, want %d (last error: %v)", len(got), want, readErr)
	}
	for i, body := range got {
		if wantBody := fmt.Sprintf("m%d", i); body != wantBody {
			t.Errorf("message %d = %q, want %q", i, body, wantBody)
		}
	}
}

// readAll reads up to want messages of stream from its start with a new
// ordered consumer and returns their bodies in order.
func readAll(ctx context.Context, stream jetstream.Stream, want int) ([]string, error) {
	cons, err := stream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{})
	if err != nil {
		return nil, fmt.Errorf("ordered consumer: %w", err)
	}
	batch, err := cons.Fetch(want, jetstream.FetchMaxWait(5*time.Second))
	if err != nil {
		return nil, fmt.Errorf("fetch: %w", err)
	}
	var got []string
	for msg := range batch.Messages() {
		got = append(got, string(msg.Data()))
	}
	return got, batch.Error()
}

func TestSingleNodeRunsJetStreamWithoutClustering(t *testing.T) {
	c := StartCluster(t, 1)
	if c.Server(0).JetStreamIsClustered() {
		t.Error("a one-node cluster should run standalone JetStream")
	}
	js := connect(t, c.URLs())
	if _, err := js.AccountInfo(context.Background()); err != nil {
		t.Fatalf("JetStream account info on the single node: %v", err)
	}
}

func TestShutdownTwiceIsHarmless(t *testing.T) {
	c := StartCluster(t, 1)
	c.Shutdown(0)
	c.Shutdown(0)
	if c.Server(0) != nil {
		t.Fatal("node still reported running")
	}
}

// fatalRecorder is a testing.TB whose Fatalf records the message and ends
// the goroutine, as testing.T does, so misuse can be asserted on.
type fatalRecorder struct {
	testing.TB
	mu  sync.Mutex
	msg string
}

func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.mu.Lock()
	r.msg = fmt.Sprintf(format, args...)
	r.mu.Unlock()
	runtime.Goexit()
}

func (r *fatalRecorder) Helper() {}

// runRecorded runs f in its own goroutine, as a failing testing.T would end
// it, and returns what rec recorded.
func runRecorded(rec *fatalRecorder, f func()) string {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
	rec.mu.Lock()
	defer rec.mu.Unlock()
	msg := rec.msg
	rec.msg = ""
	return msg
}

func TestMisuseFailsWithAClearMessage(t *testing.T) {
	rec := &fatalRecorder{TB: t}
	if msg := runRecorded(rec, func() { StartCluster(rec, 0) }); !strings.Contains(msg, "at least 1 node, got 0") {
		t.Errorf("StartCluster(0): message %q, want it to say at least 1 node is needed", msg)
	}
	c := StartCluster(t, 1)
	c.tb = rec
	defer func() { c.tb = t }()
	if msg := runRecorded(rec, func() { c.ClientURL(3) }); !strings.Contains(msg, "node 3 does not exist; the cluster has nodes 0 to 0") {
		t.Errorf("ClientURL(3): message %q, want it to name the node and the valid range", msg)
	}
	if msg := runRecorded(rec, func() { c.Restart(0) }); !strings.Contains(msg, "node is running") {
		t.Errorf("Restart of a running node: message %q, want it to say the node is running", msg)
	}
}
