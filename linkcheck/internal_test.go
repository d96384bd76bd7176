package linkcheck

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// writeSite writes files (slash path → content) under a new directory.
func writeSite(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestInternalVerdicts(t *testing.T) {
	dir := writeSite(t, map[string]string{
		"index.html":           "home",
		"docs/a/index.html":    "a",
		"docs/b.html":          "b",
		"docs/a/img/x.png":     "png",
		"search/index.json":    "[]",
		"docs/a/sub/page.html": "p",
	})
	ix, pages, err := indexFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(pages, []string{"docs/a/index.html", "docs/a/sub/page.html", "docs/b.html", "index.html"}) {
		t.Fatalf("pages = %v", pages)
	}
	ix.addIDs("docs/a/index.html", []string{"install"})
	cases := []struct {
		path, frag string
		status     Status
		reason     string
	}{
		{"", "", StatusOK, ""},
		{"docs/a/", "", StatusOK, ""},
		{"docs/a", "", StatusOK, ""},
		{"docs/b", "", StatusOK, ""},
		{"docs/a/img/x.png", "", StatusOK, ""},
		{"docs/a/", "install", StatusOK, ""},
		{"docs/a/", "top", StatusOK, ""},
		{"docs/a/", "missing", StatusBroken, ReasonMissingFragment},
		{"docs/a/img/x.png", "whatever", StatusOK, ""}, // not a page: no ids to check
		{"docs/c/", "", StatusBroken, ReasonMissingFile},
		{"docs/b/", "", StatusBroken, ReasonMissingFile},
	}
	for _, c := range cases {
		v := ix.check(Target{Kind: KindInternal, Path: c.path, Fragment: c.frag})
		if v.Status != c.status || v.Reason != c.reason {
			t.Errorf("/%s#%s: got %+v, want %s %s", c.path, c.frag, v, c.status, c.reason)
		}
	}
}
