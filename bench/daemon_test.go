package bench

import (
	"context"
	"testing"

	_ "github.com/docweave/docweave/stages/all"
)

// TestDaemonAndLinkFigures runs the daemon part and the link part of a run
// on a two-repository farm: no-change triggers must be skipped, changes
// rebuilt with the other repository reused, and the warm link run must use
// the cache (linkFigures fails otherwise).
func TestDaemonAndLinkFigures(t *testing.T) {
	f := newTestFarm(t, Size{Repos: 2, Pages: 3})
	ctx := context.Background()
	d, err := f.daemonFigures(ctx, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.NoChange) != 2 || len(d.OneChanged) != 3 || len(d.HeapMB) != 3 || len(d.RSSMB) != 3 {
		t.Fatalf("samples %+v", d)
	}
	for i, n := range d.Reused {
		if n != 1 {
			t.Fatalf("rebuild %d reused %d repositories, want the unchanged one", i, n)
		}
	}
	l, err := f.linkFigures(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Cold) != 1 || len(l.Warm) != 1 || l.External == 0 || l.Requests == 0 || l.Broken != 0 {
		t.Fatalf("link figures %+v", l)
	}
}
