package bench

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

func TestCopyTreeCopiesRegularFiles(t *testing.T) {
	src := t.TempDir()
	if err := os.MkdirAll(filepath.Join(src, "guide"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "guide", "a.md"), []byte("# A\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(src, "guide", "link")); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "content", "repo")
	if err := copyTree(src, dst); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(dst, "guide", "a.md")); err != nil || string(data) != "# A\n" {
		t.Fatalf("copied file: %q %v", data, err)
	}
	if _, err := os.Lstat(filepath.Join(dst, "guide", "link")); !os.IsNotExist(err) {
		t.Fatalf("a symbolic link was copied: %v", err)
	}
}

func TestInParallelRunsEveryJobAndReturnsAnError(t *testing.T) {
	var ran atomic.Int64
	err := inParallel(10, 3, func(i int) error {
		ran.Add(1)
		if i == 7 {
			return errors.New("job 7 failed")
		}
		return nil
	})
	if ran.Load() != 10 || err == nil || err.Error() != "job 7 failed" {
		t.Fatalf("ran %d, err %v", ran.Load(), err)
	}
}

func TestRenderFloorRejectsABadRepository(t *testing.T) {
	_, err := RenderFloor(context.Background(), t.TempDir(), filepath.Join(t.TempDir(), "p"), "t", []string{"=x"}, false, nil)
	if err == nil || !strings.Contains(err.Error(), `repository "=x": expected name=content/path`) {
		t.Fatalf("got %v", err)
	}
}

// TestRenderFloorWritesTemplateMetrics: render-floor --template-metrics
// gets Hugo's per-template table of the theme's render.
func TestRenderFloorWritesTemplateMetrics(t *testing.T) {
	project := t.TempDir()
	if err := os.MkdirAll(filepath.Join(project, "content", "repo", "guide"), 0o755); err != nil {
		t.Fatal(err)
	}
	page := "# Install\n\nSee [the next step](next.md) and [Go](https://go.dev/).\n"
	for name, body := range map[string]string{"install.md": page, "next.md": "# Next\n"} {
		if err := os.WriteFile(filepath.Join(project, "content", "repo", "guide", name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var metrics strings.Builder
	res, err := RenderFloor(context.Background(), project, filepath.Join(t.TempDir(), "public"), "t", []string{"repo=repo"}, false, &metrics)
	if err != nil {
		t.Fatal(err)
	}
	if res.Pages != 2 || !strings.Contains(metrics.String(), "_markup/render-heading.html") || !strings.Contains(metrics.String(), "page.html") {
		t.Fatalf("%d pages; metrics:\n%s", res.Pages, metrics.String())
	}
}
