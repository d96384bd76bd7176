package gitx

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docweave/docweave/internal/gittest"
)

func TestInspectWorkspace(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "a"})

	if ws := inspectWorkspace(filepath.Join(t.TempDir(), "none"), r.FileURL()); !ws.absent {
		t.Fatalf("missing dir: %+v", ws)
	}
	if ws := inspectWorkspace(t.TempDir(), r.FileURL()); !ws.absent {
		t.Fatalf("empty dir: %+v", ws)
	}
	plain := t.TempDir()
	if err := os.WriteFile(filepath.Join(plain, "x"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ws := inspectWorkspace(plain, r.FileURL()); ws.problem == nil || !strings.Contains(ws.problem.Error(), "open repository") {
		t.Fatalf("plain dir: %+v", ws)
	}

	dir := workdir(t)
	mustAcquire(t, Request{URL: r.FileURL(), Dir: dir})
	if ws := inspectWorkspace(dir, r.FileURL()); ws.problem != nil || ws.repo == nil {
		t.Fatalf("valid clone: %+v", ws)
	}
	if ws := inspectWorkspace(dir, "https://forge.test/other.git"); ws.problem == nil || !strings.Contains(ws.problem.Error(), "clone of") {
		t.Fatalf("other url: %+v", ws)
	}
	if err := os.Remove(filepath.Join(dir, ".git", "index")); err != nil {
		t.Fatal(err)
	}
	// go-git treats a missing index as empty, which is still usable.
	if ws := inspectWorkspace(dir, r.FileURL()); ws.problem != nil {
		t.Fatalf("missing index: %+v", ws)
	}
}
