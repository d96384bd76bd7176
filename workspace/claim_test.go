package workspace

import (
	"os"
	"path/filepath"
	"testing"
)

// leftovers writes what a process killed during a build leaves behind,
// and what is not docweave's own, returning both lists.
func leftovers(t *testing.T, root string) (gone, kept []string) {
	t.Helper()
	gone = []string{
		"checkouts/20261127t101010.000001-0a0b0c0d+handbook/.git/objects/pack", // a partial clone
		"checkouts/20261127t101010.000001-0a0b0c0d/handbook/docs",              // the older layout
		"verify/20261127t101010.000001-0a0b0c0d/public",
		"put-123456", "read-987", "render/put-42", "render/read-7", "render/spill-3",
		"finish/read-11", "join/spill-12", "spill/spill-13", "artifacts/tmp/put-14", "nats-direct-15",
	}
	kept = []string{
		"repos/handbook/.git", "artifacts/trees/abc", "render/slot-0/cache", "assembly/content",
		"nats/jetstream", "put-notes", "render/read-me", "mine/put-1",
	}
	for _, p := range append(append([]string{}, gone...), kept...) {
		if err := os.MkdirAll(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return gone, kept
}

func TestClaimRemovesWhatAKilledProcessLeft(t *testing.T) {
	l := Layout{Root: t.TempDir()}
	gone, kept := leftovers(t, l.Root)
	release, swept, err := l.Claim()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	// The two checkouts are two entries of checkouts/; the rest one each.
	if swept != len(gone) {
		t.Errorf("swept %d entries, want %d", swept, len(gone))
	}
	for _, p := range gone {
		if _, err := os.Stat(filepath.Join(l.Root, p)); err == nil {
			t.Errorf("%s left", p)
		}
	}
	for _, p := range kept {
		if _, err := os.Stat(filepath.Join(l.Root, p)); err != nil {
			t.Errorf("%s removed: %v", p, err)
		}
	}
}

// A process that starts while another holds the workspace removes nothing:
// what is there may be the other's build in flight.
func TestClaimSparesTheWorkOfALiveProcess(t *testing.T) {
	l := Layout{Root: t.TempDir()}
	first, _, err := l.Claim()
	if err != nil {
		t.Fatal(err)
	}
	gone, _ := leftovers(t, l.Root)
	second, swept, err := l.Claim()
	if err != nil {
		t.Fatal(err)
	}
	if swept != 0 {
		t.Fatalf("swept %d entries of a live process's work", swept)
	}
	for _, p := range gone {
		if _, err := os.Stat(filepath.Join(l.Root, p)); err != nil {
			t.Errorf("%s removed while in use", p)
		}
	}
	first()
	second()
	// Once both are gone, the next process sweeps.
	third, swept, err := l.Claim()
	if err != nil || swept == 0 {
		t.Fatalf("after both released: swept %d, %v", swept, err)
	}
	third()
}
