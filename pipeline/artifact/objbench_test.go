package artifact

import (
	"context"
	"crypto/rand"
	"fmt"
	"testing"
)

// BenchmarkObjectsPutTree uploads a new 4 MiB tree (incompressible, so 32
// chunks) per iteration to a single-node broker; BenchmarkObjectsMaterialize
// reads one back. Compare before and after a change to the broker store.
func BenchmarkObjectsPutTree(b *testing.B) {
	ctx := context.Background()
	o, err := OpenObjects(ctx, testJetStream(b), 1)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	blob := make([]byte, 4<<20)
	b.SetBytes(int64(len(blob)))
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		_, _ = rand.Read(blob)
		files := []File{{Rel: "blob.bin", Source: writeFile(b, dir, fmt.Sprintf("blob-%d", i), string(blob))}}
		b.StartTimer()
		if _, err := o.PutTree(ctx, files); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkObjectsMaterialize(b *testing.B) {
	ctx := context.Background()
	o, err := OpenObjects(ctx, testJetStream(b), 1)
	if err != nil {
		b.Fatal(err)
	}
	blob := make([]byte, 4<<20)
	_, _ = rand.Read(blob)
	ref, err := o.PutTree(ctx, []File{{Rel: "blob.bin", Source: writeFile(b, b.TempDir(), "blob", string(blob))}})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(blob)))
	for b.Loop() {
		if err := o.Materialize(ctx, ref, b.TempDir()); err != nil {
			b.Fatal(err)
		}
	}
}
