package artifact

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// TestObjectsPruneKeepsNamedAndRecentObjects: on a real embedded broker,
// Prune removes the trees and records nobody names that were stored longer
// ago than the retention, with their chunks, and leaves the named and the
// recent ones; a removed tree put again is stored again.
func TestObjectsPruneKeepsNamedAndRecentObjects(t *testing.T) {
	ctx := context.Background()
	store, err := OpenObjects(ctx, testJetStream(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	files := func(content string) []File {
		return []File{{Rel: "a.md", Source: writeFile(t, src, content, content)}}
	}
	put := func(content string) Ref {
		ref, err := store.PutTree(ctx, files(content))
		if err != nil {
			t.Fatal(err)
		}
		return ref
	}
	kept, old := put("kept"), put("old")
	for _, name := range []string{"unit-kept", "unit-old"} {
		if err := store.PutRecord(ctx, name, []byte(name)); err != nil {
			t.Fatal(err)
		}
	}
	const retention = time.Second
	time.Sleep(retention + 100*time.Millisecond)
	recent := put("recent")
	n, err := store.Prune(ctx, map[Ref]bool{kept: true}, map[string]bool{"unit-kept": true}, retention)
	if err != nil || n != 2 {
		t.Fatalf("removed %d (%v), want 2 (the old tree and the old record)", n, err)
	}
	for ref, want := range map[Ref]bool{kept: true, old: false, recent: true} {
		if has, err := store.Has(ctx, ref); err != nil || has != want {
			t.Errorf("%s present=%v (%v), want %v", ref, has, err, want)
		}
	}
	if _, err := store.Record(ctx, "unit-kept"); err != nil {
		t.Errorf("kept record: %v", err)
	}
	if _, err := store.Record(ctx, "unit-old"); err == nil {
		t.Error("old record still there")
	}
	// Nothing of the removed objects stays in the stream: the three left
	// (two trees, a record) have one chunk each, and their infos.
	si, err := store.stream.Info(ctx, jetstream.WithSubjectFilter("$O.>"))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(si.State.Subjects); got != 6 {
		t.Errorf("the stream holds %d subjects, want 6 (info and chunks of 3 objects): %v", got, si.State.Subjects)
	}
	if put("old") != old {
		t.Fatal("the same content named another tree")
	}
	if has, err := store.Has(ctx, old); err != nil || !has {
		t.Errorf("the removed tree put again: present=%v (%v)", has, err)
	}
}
