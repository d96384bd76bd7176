package artifact

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestPruneKeepsReferencedAndRecentTrees(t *testing.T) {
	ctx := context.Background()
	store, err := NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	put := func(content string) Ref {
		ref, err := store.PutTree(ctx, []File{{Rel: "a.md", Source: writeFile(t, src, content, content)}})
		if err != nil {
			t.Fatal(err)
		}
		return ref
	}
	kept, old, recent := put("kept"), put("old"), put("recent")
	past := time.Now().Add(-2 * time.Hour)
	for _, r := range []Ref{kept, old} {
		h, _ := r.Hex()
		if err := os.Chtimes(filepath.Join(store.root, "trees", h), past, past); err != nil {
			t.Fatal(err)
		}
	}
	n, err := store.Prune(map[Ref]bool{kept: true}, time.Hour)
	if err != nil || n != 1 {
		t.Fatalf("removed %d (%v), want 1", n, err)
	}
	for ref, want := range map[Ref]bool{kept: true, old: false, recent: true} {
		if has, _ := store.Has(ctx, ref); has != want {
			t.Errorf("%s present=%v, want %v", ref, has, want)
		}
	}
}
