package artifact

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

// TestConcurrentPutsOfOneTreeLeaveItStored: repositories with the same
// content store the same tree, and their clone stages put it at once.
// Every put that returns must leave the tree stored for everyone: Has
// true and Materialize whole, even while the other puts are still
// running. (A put that replaced a finished copy purged that copy's chunks
// under a reader that had just read its info: the prune stage then found
// "tree not in the artifact store" and failed the build.)
func TestConcurrentPutsOfOneTreeLeaveItStored(t *testing.T) {
	ctx := context.Background()
	js := testJetStream(t)
	const writers = 6
	views := make([]*Objects, writers)
	for i := range views {
		o, err := OpenObjects(ctx, js, 1)
		if err != nil {
			t.Fatal(err)
		}
		views[i] = o
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 15; round++ {
		src := t.TempDir()
		// Several chunks per object, so puts overlap.
		body := make([]byte, 3*objectChunkSize)
		for i := range body {
			body[i] = byte(rng.IntN(256))
		}
		files := []File{
			{Rel: "index.md", Source: writeFile(t, src, "a", fmt.Sprintf("# Round %d", round))},
			{Rel: "blob.bin", Source: writeFile(t, src, "b", string(body))},
		}
		var wg sync.WaitGroup
		errs := make(chan error, 2*writers)
		for w := range views {
			wg.Add(1)
			go func(o *Objects) {
				defer wg.Done()
				ref, err := o.PutTree(ctx, files)
				if err != nil {
					errs <- fmt.Errorf("put: %w", err)
					return
				}
				if ok, err := o.Has(ctx, ref); !ok || err != nil {
					errs <- fmt.Errorf("round %d: Has right after a put returned = %v, %v", round, ok, err)
					return
				}
				if err := o.Materialize(ctx, ref, t.TempDir()); err != nil {
					errs <- fmt.Errorf("round %d: materialize right after a put: %w", round, err)
				}
			}(views[w])
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	}
}
