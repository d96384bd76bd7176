package artifact

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// storeContract is what every Store must do, whatever keeps its trees;
// each store runs it (TestStoreContract), in the manner of Watermill's
// shared pub/sub test suite.
func storeContract(t *testing.T, open func(t *testing.T) Store) {
	ctx := context.Background()
	src := t.TempDir()
	a := File{Rel: "index.md", Source: writeFile(t, src, "a", "# Home\n")}
	b := File{Rel: "guide/deep/setup.md", Source: writeFile(t, src, "b", "# Setup\n")}
	c := File{Rel: "img/logo.png", Source: writeFile(t, src, "c", "\x89PNG")}

	t.Run("same content, same reference, in any order", func(t *testing.T) {
		s := open(t)
		r1, err := s.PutTree(ctx, []File{a, b, c})
		if err != nil {
			t.Fatal(err)
		}
		r2, err := s.PutTree(ctx, []File{c, a, b})
		if err != nil || r1 != r2 {
			t.Fatalf("second put: %s, %v; want %s", r2, err, r1)
		}
		r3, err := s.PutTree(ctx, []File{a, b})
		if err != nil || r3 == r1 {
			t.Fatalf("other content: %s, %v; want another reference than %s", r3, err, r1)
		}
	})
	t.Run("materialize gives back exactly the files", func(t *testing.T) {
		s := open(t)
		ref, err := s.PutTree(ctx, []File{a, b, c})
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := s.Has(ctx, ref); !ok || err != nil {
			t.Fatalf("Has after put = %v, %v", ok, err)
		}
		dir := filepath.Join(t.TempDir(), "exists")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := s.Materialize(ctx, ref, dir); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			got[filepath.ToSlash(rel)] = string(data)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"index.md": "# Home\n", "guide/deep/setup.md": "# Setup\n", "img/logo.png": "\x89PNG"}
		if len(got) != len(want) {
			t.Fatalf("materialized %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
		}
		for rel, content := range want {
			if got[rel] != content {
				t.Errorf("%s = %q, want %q", rel, got[rel], content)
			}
		}
	})
	t.Run("an unknown tree is not found", func(t *testing.T) {
		s := open(t)
		unknown := TreeRef([]Entry{{Rel: "never.md", Hash: "00"}})
		if ok, err := s.Has(ctx, unknown); ok || err != nil {
			t.Fatalf("Has(unknown) = %v, %v", ok, err)
		}
		if err := s.Materialize(ctx, unknown, t.TempDir()); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Materialize(unknown) = %v, want ErrNotFound", err)
		}
	})
	t.Run("unsafe and repeated paths are refused", func(t *testing.T) {
		s := open(t)
		for _, rel := range []string{"../escape.md", "/abs.md", ".git/config", "a/../../b.md", ""} {
			if _, err := s.PutTree(ctx, []File{{Rel: rel, Source: a.Source}}); err == nil {
				t.Errorf("path %q accepted", rel)
			}
		}
		if _, err := s.PutTree(ctx, []File{a, a}); err == nil {
			t.Error("a path given twice was accepted")
		}
	})
	t.Run("records are kept, replaced and named safely", func(t *testing.T) {
		s := open(t)
		if _, err := s.Record(ctx, "unit-abc"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Record before any put = %v, want ErrNotFound", err)
		}
		for _, v := range []string{"first", "second"} {
			if err := s.PutRecord(ctx, "unit-abc", []byte(v)); err != nil {
				t.Fatal(err)
			}
			got, err := s.Record(ctx, "unit-abc")
			if err != nil || string(got) != v {
				t.Fatalf("Record = %q, %v; want %q", got, err, v)
			}
		}
		for _, name := range []string{"../x", ".hidden", "Upper", ""} {
			if err := s.PutRecord(ctx, name, []byte("x")); err == nil {
				t.Errorf("record name %q accepted", name)
			}
		}
	})
}

func TestStoreContract(t *testing.T) {
	t.Run("local", func(t *testing.T) {
		storeContract(t, func(t *testing.T) Store {
			s, err := NewLocal(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			return s
		})
	})
	t.Run("objects", func(t *testing.T) {
		storeContract(t, func(t *testing.T) Store {
			s, err := OpenObjects(context.Background(), testJetStream(t), 1)
			if err != nil {
				t.Fatal(err)
			}
			return s
		})
	})
}
