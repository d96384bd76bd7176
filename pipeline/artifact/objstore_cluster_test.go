package artifact

import (
	"context"
	"crypto/rand"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docweave/docweave/internal/natstest"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// connectTo opens a JetStream client that tries the given URLs in order
// and reconnects for ever, as the pipeline's clients do.
func connectTo(t *testing.T, urls ...string) jetstream.JetStream {
	t.Helper()
	nc, err := nats.Connect(strings.Join(urls, ","), nats.DontRandomize(), nats.MaxReconnects(-1), nats.ReconnectWait(50*time.Millisecond))
	if err != nil {
		t.Fatalf("connect to %v: %v", urls, err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// randomTree writes a tree of several object-store chunks (random bytes do
// not compress) below a fresh directory.
func randomTree(t *testing.T, id string) []File {
	t.Helper()
	dir := t.TempDir()
	big := make([]byte, 300<<10)
	if _, err := rand.Read(big); err != nil {
		t.Fatal(err)
	}
	return []File{
		{Rel: "index.md", Source: writeFile(t, dir, "index", "# Tree "+id)},
		{Rel: "assets/blob.bin", Source: writeFile(t, dir, "blob", string(big))},
	}
}

// TestTreesPutWhileANodeStopsReadBackWhole stops the node leading the
// artifact stream while trees are being put, from a client connected to
// that node and from one connected to another. A put that fails is tried
// again, as a redelivered message would; every tree a put reported stored
// must then materialize to exactly its reference.
func TestTreesPutWhileANodeStopsReadBackWhole(t *testing.T) {
	c := natstest.StartCluster(t, 3)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if _, err := OpenObjects(ctx, connectTo(t, c.URLs()), 3); err != nil { // creates the R3 bucket
		t.Fatal(err)
	}
	leader := -1
	for i := range c.Size() {
		if c.Server(i).JetStreamIsStreamLeader("$G", "OBJ_"+ObjectStoreBucket) {
			leader = i
		}
	}
	if leader < 0 {
		t.Fatal("no node leads the artifact stream")
	}
	other := (leader + 1) % c.Size()
	var stores []*Objects
	for _, first := range []int{leader, other} {
		urls := []string{c.ClientURL(first)}
		for i := range c.Size() {
			if i != first {
				urls = append(urls, c.ClientURL(i))
			}
		}
		s, err := OpenObjects(ctx, connectTo(t, urls...), 3)
		if err != nil {
			t.Fatal(err)
		}
		stores = append(stores, s)
	}

	const putters, treesEach = 4, 12
	var (
		mu     sync.Mutex
		stored []Ref
		failed []string
		wg     sync.WaitGroup
	)
	stopped := make(chan struct{})
	for p := range putters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			store := stores[p%len(stores)]
			for n := range treesEach {
				if n == 2 && p == 0 {
					go func() { c.Shutdown(leader); close(stopped) }()
				}
				files := randomTree(t, fmt.Sprintf("%d-%d", p, n))
				var err error
				for attempt := 0; attempt < 20; attempt++ {
					pctx, pcancel := context.WithTimeout(ctx, 10*time.Second)
					var ref Ref
					ref, err = store.PutTree(pctx, files)
					pcancel()
					if err == nil {
						mu.Lock()
						stored = append(stored, ref)
						mu.Unlock()
						break
					}
					time.Sleep(200 * time.Millisecond)
				}
				if err != nil {
					mu.Lock()
					failed = append(failed, err.Error())
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	<-stopped
	if len(failed) > 0 {
		t.Errorf("%d trees could not be put in 20 tries: %v", len(failed), failed)
	}

	reader := stores[1]
	var bad []string
	for _, ref := range stored {
		out := t.TempDir()
		rctx, rcancel := context.WithTimeout(ctx, 20*time.Second)
		err := reader.Materialize(rctx, ref, out)
		rcancel()
		if err != nil {
			bad = append(bad, fmt.Sprintf("%s: %v", ref, err))
			continue
		}
		if got, _, err := HashDir(out); err != nil || got != ref {
			bad = append(bad, fmt.Sprintf("%s: materialized as %s (%v)", ref, got, err))
		}
	}
	if len(bad) > 0 {
		t.Fatalf("%d of %d trees reported stored do not read back whole:\n%s", len(bad), len(stored), strings.Join(bad, "\n"))
	}
	t.Logf("%d trees put and read back whole", len(stored))
}
