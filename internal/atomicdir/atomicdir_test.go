package atomicdir

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

func site(t *testing.T, dir, content string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSwapNeverLeavesTheTargetMissing swaps sites while a reader reads the
// target path in a loop: it must always find a whole page.
func TestSwapNeverLeavesTheTargetMissing(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(root, "public")
	staging := filepath.Join(root, "staging")
	site(t, staging, "v0")
	if err := Swap(staging, target); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var misses atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			if _, err := os.ReadFile(filepath.Join(target, "index.html")); err != nil {
				misses.Add(1)
			}
		}
	}()
	for i := 1; i <= 200; i++ {
		site(t, staging, "v"+string(rune('0'+i%10)))
		if err := Swap(staging, target); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(staging); !os.IsNotExist(err) {
			t.Fatalf("old site left at the staging path after swap %d", i)
		}
	}
	stop.Store(true)
	wg.Wait()
	if misses.Load() != 0 {
		t.Fatalf("the reader found no site %d times", misses.Load())
	}
	got, _ := os.ReadFile(filepath.Join(target, "index.html"))
	if string(got) != "v0" { // 200 % 10 == 0
		t.Fatalf("final site %q", got)
	}
}

func TestExchangeKeepsTheOldDirectoryAtStaging(t *testing.T) {
	dir := t.TempDir()
	staging, target := filepath.Join(dir, "next"), filepath.Join(dir, "public")
	for d, f := range map[string]string{staging: "new", target: "old"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "f"), []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := Exchange(staging, target); err != nil {
		t.Fatal(err)
	}
	for d, want := range map[string]string{target: "new", staging: "old"} {
		if data, err := os.ReadFile(filepath.Join(d, "f")); err != nil || string(data) != want {
			t.Fatalf("%s holds %q (%v), want %q", d, data, err, want)
		}
	}
	// No target yet: staging becomes it.
	fresh := filepath.Join(dir, "fresh")
	if err := Exchange(staging, fresh); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(staging); !os.IsNotExist(err) {
		t.Fatalf("staging still there: %v", err)
	}
}
