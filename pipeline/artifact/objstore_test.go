package artifact

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

func testJetStream(t testing.TB) jetstream.JetStream {
	t.Helper()
	ns, err := server.NewServer(&server.Options{JetStream: true, StoreDir: t.TempDir(), DontListen: true, NoSigs: true, NoLog: true})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats not ready")
	}
	nc, err := nats.Connect(ns.ClientURL(), nats.InProcessServer(ns))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close(); ns.Shutdown() })
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// TestObjectsAndLocalAgree: the broker store names a tree exactly as the
// local store does, and a tree put by one process is materialized by
// another through the broker alone.
func TestObjectsAndLocalAgree(t *testing.T) {
	ctx := context.Background()
	js := testJetStream(t)
	writer, err := OpenObjects(ctx, js, 1)
	if err != nil {
		t.Fatal(err)
	}
	reader, err := OpenObjects(ctx, js, 1) // a second process's view
	if err != nil {
		t.Fatal(err)
	}
	local, err := NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	files := []File{
		{Rel: "index.md", Source: writeFile(t, src, "a", "# Home")},
		{Rel: "guide/deep/setup.md", Source: writeFile(t, src, "b", "# Setup\n\nbody")},
	}
	ref, err := writer.PutTree(ctx, files)
	if err != nil {
		t.Fatal(err)
	}
	localRef, _ := local.PutTree(ctx, files)
	if ref != localRef {
		t.Fatalf("object store ref %s, local ref %s", ref, localRef)
	}
	if !IsShared(writer) || IsShared(local) {
		t.Fatal("only the object store is shared")
	}
	sent := writer.BytesSent()
	if sent == 0 {
		t.Fatal("no bytes counted for the upload")
	}
	if _, err := writer.PutTree(ctx, files); err != nil || writer.BytesSent() != sent {
		t.Fatalf("a stored tree was uploaded again (%d → %d bytes, %v)", sent, writer.BytesSent(), err)
	}
	if ok, err := reader.Has(ctx, ref); !ok || err != nil {
		t.Fatalf("Has = %v, %v", ok, err)
	}
	out := t.TempDir()
	if err := reader.Materialize(ctx, ref, out); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(out, "guide", "deep", "setup.md"))
	if err != nil || string(got) != "# Setup\n\nbody" {
		t.Fatalf("materialized %q, %v", got, err)
	}
	if dirRef, _, _ := HashDir(out); dirRef != ref {
		t.Fatalf("materialized tree hashes to %s, want %s", dirRef, ref)
	}
	missing := Ref("sha256:" + "1111111111111111111111111111111111111111111111111111111111111111")
	if err := reader.Materialize(ctx, missing, t.TempDir()); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing tree: %v", err)
	}
}
