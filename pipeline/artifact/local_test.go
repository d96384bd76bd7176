package artifact

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func writeFile(t testing.TB, dir, rel, content string) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLocalPutMaterializeIsContentAddressed(t *testing.T) {
	ctx := context.Background()
	src := t.TempDir()
	store, err := NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := []File{
		{Rel: "index.md", Source: writeFile(t, src, "a", "# Home")},
		{Rel: "guide/setup.md", Source: writeFile(t, src, "b", "# Setup")},
	}
	ref1, err := store.PutTree(ctx, files)
	if err != nil {
		t.Fatal(err)
	}
	// The same content in another order gives the same reference.
	ref2, err := store.PutTree(ctx, []File{files[1], files[0]})
	if err != nil || ref2 != ref1 {
		t.Fatalf("same content gave %s and %s (%v)", ref1, ref2, err)
	}
	// A renamed file changes the reference although the bytes are equal.
	ref3, err := store.PutTree(ctx, []File{{Rel: "home.md", Source: files[0].Source}, files[1]})
	if err != nil || ref3 == ref1 {
		t.Fatalf("renamed file kept reference %s (%v)", ref3, err)
	}
	out := t.TempDir()
	if err := store.Materialize(ctx, ref1, out); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(out, "guide", "setup.md"))
	if err != nil || string(got) != "# Setup" {
		t.Fatalf("materialized content %q (%v)", got, err)
	}
	if ok, err := store.Has(ctx, ref1); !ok || err != nil {
		t.Fatalf("Has(%s) = %v, %v", ref1, ok, err)
	}
	// HashDir of the materialized tree names the same tree.
	if dirRef, n, err := HashDir(out); err != nil || dirRef != ref1 || n != 2 {
		t.Fatalf("HashDir = %s, %d, %v; want %s, 2", dirRef, n, err, ref1)
	}
}

func TestLocalRejectsUnsafePathsAndUnknownRefs(t *testing.T) {
	ctx := context.Background()
	store, err := NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := writeFile(t, t.TempDir(), "x", "x")
	for _, rel := range []string{"../escape.md", "/abs.md", "a/../../b", "", "a\\b"} {
		if _, err := store.PutTree(ctx, []File{{Rel: rel, Source: src}}); err == nil {
			t.Errorf("unsafe path %q accepted", rel)
		}
	}
	missing := Ref("sha256:" + "0000000000000000000000000000000000000000000000000000000000000000")
	if err := store.Materialize(ctx, missing, t.TempDir()); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing ref: %v", err)
	}
	if err := store.Materialize(ctx, Ref("md5:abc"), t.TempDir()); err == nil {
		t.Fatal("malformed ref accepted")
	}
}

// TestLocalKeepsOwnedFilesWithoutCopying: a file handed over (Owned) is
// kept as a hard link of itself; the tree's reference is the one a copy
// gives.
func TestLocalKeepsOwnedFilesWithoutCopying(t *testing.T) {
	ctx := context.Background()
	l, err := NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(src, []byte("<p>page</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	owned, err := l.PutTree(ctx, []File{{Rel: "a/page.html", Source: src, Owned: true}})
	if err != nil {
		t.Fatal(err)
	}
	copied, err := NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ref, err := copied.PutTree(ctx, []File{{Rel: "a/page.html", Source: src}})
	if err != nil || ref != owned {
		t.Fatalf("owned %s, copied %s, %v", owned, ref, err)
	}
	hexRef, _ := owned.Hex()
	kept, err := os.Stat(filepath.Join(l.root, "trees", hexRef, "a", "page.html"))
	if err != nil {
		t.Fatal(err)
	}
	orig, _ := os.Stat(src)
	if !os.SameFile(kept, orig) {
		t.Fatal("the owned file was copied, not linked")
	}
}
