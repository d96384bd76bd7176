package artifact

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// objectsWithTree opens a broker store holding one small tree, returning
// the tree's files, reference and object name.
func objectsWithTree(t *testing.T) (*Objects, []File, Ref, string) {
	t.Helper()
	o, err := OpenObjects(context.Background(), testJetStream(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	files := []File{
		{Rel: "index.md", Source: writeFile(t, src, "a", "# Home")},
		{Rel: "guide/setup.md", Source: writeFile(t, src, "b", "# Setup")},
	}
	ref, err := o.PutTree(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	name, _ := objectName(ref)
	return o, files, ref, name
}

// rewriteObject stores chunks under name with the info of the object now
// there (marked as putObject marks it), changed by edit: the state a put
// that went wrong leaves behind.
func rewriteObject(t *testing.T, o *Objects, name string, chunks [][]byte, edit func(*jetstream.ObjectInfo)) {
	t.Helper()
	ctx := context.Background()
	info, err := o.obs.GetInfo(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	info.NUID = newObjectID()
	info.Chunks = uint32(len(chunks))
	for _, c := range chunks {
		if _, err := o.js.Publish(ctx, o.chunkSubject(info.NUID), c); err != nil {
			t.Fatal(err)
		}
	}
	edit(info)
	data, _ := json.Marshal(info)
	meta := &nats.Msg{Subject: o.metaSubject(name), Data: data, Header: nats.Header{}}
	meta.Header.Set(jetstream.MsgRollup, jetstream.MsgRollupSubject)
	if _, err := o.js.PublishMsg(ctx, meta); err != nil {
		t.Fatal(err)
	}
}

// storedBytes returns the object's content as stored, unchecked.
func storedBytes(t *testing.T, o *Objects, name string) []byte {
	t.Helper()
	res, err := o.obs.Get(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, res); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// assertEmpty fails unless dir holds nothing: a read that failed keeps
// nothing of what it read.
func assertEmpty(t *testing.T, dir string) {
	t.Helper()
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("a failed read left %d entries in the target directory", len(left))
	}
}

// An object whose chunks came in the wrong order or with another chunk's
// bytes (what nats.go's Put stores when it republishes a chunk after a
// leader election) is recorded with the right size and digest: reading
// it fails with the transient ErrCorrupt, never ErrNotFound, and writes
// nothing.
func TestCorruptObjectFailsTransientlyAndWritesNothing(t *testing.T) {
	ctx := context.Background()
	o, _, ref, name := objectsWithTree(t)
	whole := storedBytes(t, o, name)
	half := len(whole) / 2
	rewriteObject(t, o, name, [][]byte{whole[half:], whole[:half]}, func(*jetstream.ObjectInfo) {})
	dir := t.TempDir()
	err := o.Materialize(ctx, ref, dir)
	if !errors.Is(err, ErrCorrupt) || errors.Is(err, ErrNotFound) {
		t.Fatalf("materialize a reordered object: %v, want ErrCorrupt", err)
	}
	assertEmpty(t, dir)
}

// An object shorter than its info records is corrupt too.
func TestShortObjectIsCorrupt(t *testing.T) {
	ctx := context.Background()
	o, _, ref, name := objectsWithTree(t)
	whole := storedBytes(t, o, name)
	rewriteObject(t, o, name, [][]byte{whole[:len(whole)-8]}, func(*jetstream.ObjectInfo) {})
	dir := t.TempDir()
	if err := o.Materialize(ctx, ref, dir); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("materialize a short object: %v, want ErrCorrupt", err)
	}
	assertEmpty(t, dir)
}

// Whole, well-formed content stored under another tree's name does not
// pass for that tree: the unpacked files are hashed against the key.
func TestTreeUnderAnotherNameIsCorrupt(t *testing.T) {
	ctx := context.Background()
	o, _, _, name := objectsWithTree(t)
	content, err := spool(func(w io.Writer) error {
		_, err := w.Write(storedBytes(t, o, name))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	defer content.close()
	other := Ref("sha256:" + "2222222222222222222222222222222222222222222222222222222222222222")
	otherName, _ := objectName(other)
	if err := o.putObject(ctx, otherName, content); err != nil {
		t.Fatal(err)
	}
	if err := o.Materialize(ctx, other, t.TempDir()); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("materialize a tree stored under another name: %v, want ErrCorrupt", err)
	}
}

// A put that stopped after its info but before its chunks were all
// stored does not count as stored: Has says no and the next PutTree
// uploads the tree again, which then reads back whole.
func TestIncompleteObjectIsNotStored(t *testing.T) {
	ctx := context.Background()
	o, files, ref, name := objectsWithTree(t)
	whole := storedBytes(t, o, name)
	rewriteObject(t, o, name, [][]byte{whole}, func(info *jetstream.ObjectInfo) { info.Chunks = 2 })
	if has, err := o.Has(ctx, ref); has || err != nil {
		t.Fatalf("Has of an object missing a chunk = %v, %v; want false", has, err)
	}
	sent := o.BytesSent()
	if got, err := o.PutTree(ctx, files); err != nil || got != ref {
		t.Fatalf("put again: %s, %v", got, err)
	}
	if o.BytesSent() == sent {
		t.Fatal("the incomplete object was taken for stored: nothing uploaded")
	}
	if has, err := o.Has(ctx, ref); !has || err != nil {
		t.Fatalf("Has after the new put = %v, %v", has, err)
	}
	if err := o.Materialize(ctx, ref, t.TempDir()); err != nil {
		t.Fatal(err)
	}
}

// An object written by nats.go's Put (unmarked: it may hold another
// chunk's bytes) is not trusted as stored; PutTree writes it again and
// removes the chunks of the copy it replaces.
func TestObjectPutByNatsIsWrittenAgain(t *testing.T) {
	ctx := context.Background()
	o, files, ref, name := objectsWithTree(t)
	legacy, err := o.obs.PutBytes(ctx, name, storedBytes(t, o, name))
	if err != nil {
		t.Fatal(err)
	}
	if has, err := o.Has(ctx, ref); has || err != nil {
		t.Fatalf("Has of an object nats.go put = %v, %v; want false", has, err)
	}
	sent := o.BytesSent()
	if _, err := o.PutTree(ctx, files); err != nil || o.BytesSent() == sent {
		t.Fatalf("the tree was not written again (%v)", err)
	}
	if info, err := o.obs.GetInfo(ctx, name); err != nil || info.Metadata[putMarkKey] != putMarkValue {
		t.Fatalf("info after the new put: %+v, %v", info, err)
	}
	subject := o.chunkSubject(legacy.NUID)
	si, err := o.stream.Info(ctx, jetstream.WithSubjectFilter(subject))
	if err != nil {
		t.Fatal(err)
	}
	if n := si.State.Subjects[subject]; n != 0 {
		t.Fatalf("the replaced copy keeps %d chunks", n)
	}
}

// A large tree spans several chunks of the object store's size and reads
// back whole.
func TestLargeTreeSpansChunksInOrder(t *testing.T) {
	ctx := context.Background()
	o, err := OpenObjects(ctx, testJetStream(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	files := randomTree(t, "large")
	ref, err := o.PutTree(ctx, files)
	if err != nil {
		t.Fatal(err)
	}
	name, _ := objectName(ref)
	info, err := o.complete(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if info.Chunks < 3 || info.Size != uint64(o.BytesSent()) {
		t.Fatalf("info %d chunks of %d bytes; want ≥ 3 chunks and the %d bytes sent", info.Chunks, info.Size, o.BytesSent())
	}
	out := t.TempDir()
	if err := o.Materialize(ctx, ref, out); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := HashDir(out); got != ref {
		t.Fatalf("read back as %s", got)
	}
}

// A spooled archive has no name on disk while it is used, so a process
// killed during a transfer leaves no temporary file behind.
func TestSpoolLeavesNoFileBehind(t *testing.T) {
	content, err := spool(func(w io.Writer) error {
		_, err := io.WriteString(w, "archive bytes")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	defer content.close()
	if _, err := os.Stat(content.file.Name()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the spool file %s is still on disk (%v)", content.file.Name(), err)
	}
	buf := make([]byte, content.size)
	if _, err := content.file.ReadAt(buf, 0); err != nil || string(buf) != "archive bytes" {
		t.Fatalf("read back %q, %v", buf, err)
	}
}
