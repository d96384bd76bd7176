package workspace

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestPruneCacheRemovesOnlyOldCheckoutsNotKept(t *testing.T) {
	l := Layout{Root: t.TempDir()}
	l.RepoCache = filepath.Join(l.Root, "repos")
	old := time.Now().Add(-2 * time.Hour)
	for _, name := range []string{"handbook", CheckoutName("product", "main"), CheckoutName("product", "feature-x"), CheckoutName("product", "v0.9.0")} {
		dir := filepath.Join(l.RepoCache, name)
		if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		if name != "product@v0.9.0" { // a checkout just made: too young to prune
			if err := os.Chtimes(dir, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	keep := map[string]bool{"handbook": true, "product@main": true}
	n, err := l.PruneCache(keep, time.Hour)
	if err != nil || n != 1 {
		t.Fatalf("removed %d (%v), want 1", n, err)
	}
	for name, want := range map[string]bool{"handbook": true, "product@main": true, "product@feature-x": false, "product@v0.9.0": true} {
		_, err := os.Stat(filepath.Join(l.RepoCache, name))
		if (err == nil) != want {
			t.Errorf("%s present=%v, want %v", name, err == nil, want)
		}
	}
	if n, err := (Layout{RepoCache: filepath.Join(l.Root, "absent")}).PruneCache(nil, 0); n != 0 || err != nil {
		t.Fatalf("absent cache: %d %v", n, err)
	}
}
