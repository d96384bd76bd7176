package artifact

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/internal/natstest"
)

// TestObjectsAreReadWhereTheyWereWritten: on a three-node cluster with
// an R3 bucket, a tree put through one node is found and read at once
// through every other node, round after round. nats.go creates object
// stores with direct gets, which a follower may answer before it has an
// object's info; the store turns them off, so reads go to the leader.
func TestObjectsAreReadWhereTheyWereWritten(t *testing.T) {
	ctx := context.Background()
	c := natstest.StartCluster(t, 3)
	writerJS := connectTo(t, c.ClientURL(0))
	writer := openSettled(t, writerJS)
	stream, err := writer.js.Stream(ctx, "OBJ_"+writer.bucket)
	if err != nil {
		t.Fatal(err)
	}
	if stream.CachedInfo().Config.AllowDirect {
		t.Fatal("the bucket's stream still answers direct gets from followers")
	}
	var readers []*Objects
	for i := 1; i < 3; i++ {
		readers = append(readers, openSettled(t, connectTo(t, c.ClientURL(i))))
	}
	for round := 0; round < 30; round++ {
		src := t.TempDir()
		ref, err := writer.PutTree(ctx, []File{{Rel: "page.md", Source: writeFile(t, src, "p", fmt.Sprintf("# Round %d", round))}})
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range readers {
			if ok, err := r.Has(ctx, ref); !ok || err != nil {
				t.Fatalf("round %d: reader on node %d: Has right after the put = %v, %v", round, i+1, ok, err)
			}
			if err := r.Materialize(ctx, ref, t.TempDir()); err != nil {
				t.Fatalf("round %d: reader on node %d: %v", round, i+1, err)
			}
		}
	}
}

// TestAHandleBoundBeforeDirectGetsWereTurnedOff: processes that start
// together each create the bucket (nats.go turns direct gets on) and turn
// direct gets off. A process whose handle read the stream's configuration
// just before another process turned them off must still read: a handle
// that believes in direct gets asks for them with no one to answer ("no
// responders"), which failed every clone of a build in CI.
func TestAHandleBoundBeforeDirectGetsWereTurnedOff(t *testing.T) {
	ctx := context.Background()
	js := testJetStream(t)
	created, err := js.CreateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: ObjectStoreBucket})
	if err != nil {
		t.Fatal(err)
	}
	// The other process turns direct gets off right after this one's
	// handle has read the configuration.
	racing := &flipAfterStatus{ObjectStore: created, flip: func() {
		stream, err := js.Stream(ctx, "OBJ_"+ObjectStoreBucket)
		if err != nil {
			t.Fatal(err)
		}
		cfg := stream.CachedInfo().Config
		cfg.AllowDirect = false
		if _, err := js.UpdateStream(ctx, cfg); err != nil {
			t.Fatal(err)
		}
	}}
	obs, err := readFromLeader(ctx, js, racing)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := obs.GetInfo(ctx, "absent"); !errors.Is(err, jetstream.ErrObjectNotFound) {
		t.Fatalf("reading through the handle: %v, want object not found", err)
	}
}

// flipAfterStatus runs flip once, right after the first Status.
type flipAfterStatus struct {
	jetstream.ObjectStore
	flip    func()
	flipped bool
}

func (f *flipAfterStatus) Status(ctx context.Context) (jetstream.ObjectStoreStatus, error) {
	st, err := f.ObjectStore.Status(ctx)
	if !f.flipped {
		f.flipped = true
		f.flip()
	}
	return st, err
}

// openSettled opens the R3 object store, trying again while a cluster that
// just formed (on a busy machine) still elects its leaders, as
// natsbroker.RetryWhileElecting does for the processes.
func openSettled(t *testing.T, js jetstream.JetStream) *Objects {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		o, err := OpenObjects(context.Background(), js, 3)
		if err == nil {
			return o
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
	}
}
