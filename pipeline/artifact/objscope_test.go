package artifact_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/pipeline/natsbroker"
)

// Through a site's scope the object store is <site>_docweave-artifacts;
// trees put through it are stored whole there and read back, and a
// second site on the same broker does not see them.
func TestObjectsThroughASiteScope(t *testing.T) {
	ctx := context.Background()
	raw := artifact.TestJetStream(t)
	handbook, err := artifact.OpenObjects(ctx, natsbroker.NewScope("handbook").JetStream(raw), 1)
	if err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	p := filepath.Join(src, "index.md")
	if err := os.WriteFile(p, []byte("# Handbook"), 0o644); err != nil {
		t.Fatal(err)
	}
	ref, err := handbook.PutTree(ctx, []artifact.File{{Rel: "index.md", Source: p}})
	if err != nil {
		t.Fatal(err)
	}
	if has, err := handbook.Has(ctx, ref); !has || err != nil {
		t.Fatalf("Has after put = %v, %v", has, err)
	}
	out := t.TempDir()
	if err := handbook.Materialize(ctx, ref, out); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := artifact.HashDir(out); got != ref {
		t.Fatalf("read back as %s", got)
	}
	obs, err := raw.ObjectStore(ctx, "handbook_"+artifact.ObjectStoreBucket)
	if err != nil {
		t.Fatal(err)
	}
	if list, err := obs.List(ctx); err != nil || len(list) != 1 {
		t.Fatalf("the site's bucket holds %d objects (%v), want 1", len(list), err)
	}
	other, err := artifact.OpenObjects(ctx, natsbroker.NewScope("blog").JetStream(raw), 1)
	if err != nil {
		t.Fatal(err)
	}
	if has, err := other.Has(ctx, ref); has || err != nil {
		t.Fatalf("another site sees the tree: %v, %v", has, err)
	}
}
