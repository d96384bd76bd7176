package linkcheck

import (
	"context"
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

// A link with a fragment to a redirect page (a link by id's page, a Hugo
// alias) is checked against the ids of the page it redirects to.
func TestFragmentsThroughRedirectPages(t *testing.T) {
	root := writeSite(t, map[string]string{
		"public/docs/_xref/install-guide/index.html": `<!DOCTYPE html><html><head><title>/docs/shed/install/</title>
<link rel="canonical" href="/docs/shed/install/"><script>location.replace("/docs/shed/install/" + location.hash)</script>
<meta http-equiv="refresh" content="0; url=/docs/shed/install/"></head></html>`,
		"public/docs/shed/install/index.html": `<h1 id="installing">Installing</h1><h2 id="step-2">Step 2</h2>`,
		"public/docs/garden/index.html":       `<a href="/docs/_xref/install-guide/#step-2">step 2</a> <a href="/docs/_xref/install-guide/#step-9">step 9</a>`,
	})
	res, err := NewVerifier(Options{}, nil).Verify(context.Background(), Site{PublicDir: filepath.Join(root, "public")}, "b1")
	if err != nil {
		t.Fatal(err)
	}
	if tr := targetByURL(t, res, "/docs/_xref/install-guide/#step-2"); tr.Verdict.Status != StatusOK {
		t.Errorf("a fragment the target page has: %+v", tr.Verdict)
	}
	if tr := targetByURL(t, res, "/docs/_xref/install-guide/#step-9"); tr.Verdict.Status != StatusBroken || tr.Verdict.Reason != ReasonMissingFragment {
		t.Errorf("a fragment the target page lacks: %+v", tr.Verdict)
	}
}
