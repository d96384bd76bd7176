package docs

import (
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const secret = "TOP-SECRET-CONTENT"

// siteWithSecretNextToIt lays out <tmp>/secret.txt beside <tmp>/public.
func siteWithSecretNextToIt(t *testing.T) (public string) {
	t.Helper()
	dir := t.TempDir()
	public = filepath.Join(dir, "public")
	writeSite(t, public, testSite)
	if err := os.WriteFile(filepath.Join(dir, "secret.txt"), []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	return public
}

func TestDotDotTraversalIsRefused(t *testing.T) {
	public := siteWithSecretNextToIt(t)
	srv := startServer(t, public)

	for _, target := range []string{
		"/../secret.txt",
		"/docs/../../secret.txt",
		"/docs/%2e%2e/%2e%2e/secret.txt",
		"/docs/..%2f..%2fsecret.txt",
		"/..%5csecret.txt",
	} {
		r := rawGet(t, srv, target)
		if strings.Contains(r.body, secret) {
			t.Fatalf("GET %s served the file outside the site", target)
		}
		if r.status != http.StatusNotFound && r.status != http.StatusBadRequest {
			t.Fatalf("GET %s: status %d, want 404 (or 400)", target, r.status)
		}
	}
}

func TestSymlinksEscapingTheSiteAreRefused(t *testing.T) {
	public := siteWithSecretNextToIt(t)
	outside := filepath.Join(filepath.Dir(public), "secret.txt")
	if err := os.Symlink("../secret.txt", filepath.Join(public, "relative-escape.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(public, "absolute-escape.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("..", filepath.Join(public, "parent")); err != nil {
		t.Fatal(err)
	}
	// A link that stays inside the site is fine.
	if err := os.Symlink("docs/guide/index.html", filepath.Join(public, "guide.html")); err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, public)

	for _, p := range []string{"/relative-escape.txt", "/absolute-escape.txt", "/parent/secret.txt"} {
		r := get(t, srv.URL+p)
		if strings.Contains(r.body, secret) || r.status != http.StatusNotFound {
			t.Fatalf("GET %s: %d %q, want 404 without the secret", p, r.status, r.body)
		}
	}
	if r := get(t, srv.URL+"/guide.html"); r.status != http.StatusOK || !strings.Contains(r.body, "<title>Guide</title>") {
		t.Fatalf("GET /guide.html (link inside the site): %d", r.status)
	}
}

func TestOpenFileRefusesNamesOutsideTheRoot(t *testing.T) {
	public := siteWithSecretNextToIt(t)
	root, err := os.OpenRoot(public)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	// siteName would clean these; os.Root must refuse them even uncleaned.
	for _, name := range []string{"../secret.txt", "docs/../../secret.txt"} {
		f, _, err := openFile(root, name)
		if err == nil {
			f.Close()
			t.Fatalf("openFile(%q) succeeded outside the root", name)
		}
	}
}

func TestOpenFileTreatsSpecialFilesAsMissing(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	writeSite(t, public, testSite)
	if err := mkfifo(filepath.Join(public, "pipe")); err != nil {
		t.Skipf("no fifo support here: %v", err)
	}
	root, err := os.OpenRoot(public)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if _, _, err := openFile(root, "pipe"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("openFile(fifo) error %v, want fs.ErrNotExist", err)
	}
}

func TestSiteName(t *testing.T) {
	cases := map[string]string{
		"/":                 ".",
		"":                  ".",
		"/docs/x/":          "docs/x",
		"/docs//x":          "docs/x",
		"/../../etc/passwd": "etc/passwd",
		"docs":              "docs",
		"/a/./b/../c":       "a/c",
	}
	for in, want := range cases {
		if got := siteName(in); got != want {
			t.Errorf("siteName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOpenSiteWaitsThroughASwap(t *testing.T) {
	dir := t.TempDir()
	public := filepath.Join(dir, "public")
	if _, err := openSite(public); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("openSite without a site: %v, want fs.ErrNotExist", err)
	}
	// Mid-swap: public moved aside, the new one not yet in place. The wait
	// is bounded, so with no new site coming it still reports absence.
	if err := os.Mkdir(public+".old", 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := openSite(public); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("openSite with only public.old: %v, want fs.ErrNotExist", err)
	}
}

func TestSiteReplacedDetectsSwap(t *testing.T) {
	dir := t.TempDir()
	public := filepath.Join(dir, "public")
	writeSite(t, public, testSite)
	root, err := os.OpenRoot(public)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if siteReplaced(root, public) {
		t.Fatal("siteReplaced before any swap")
	}
	staging := filepath.Join(dir, "staging")
	writeSite(t, staging, testSite)
	swapLikeRender(t, staging, public)
	if !siteReplaced(root, public) {
		t.Fatal("siteReplaced = false after the directory was swapped")
	}
}

func TestLookup(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	writeSite(t, public, testSite)
	root, err := os.OpenRoot(public)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	cases := []struct {
		path, name        string
		redirect, missing bool
	}{
		{"/", "index.html", false, false},
		{"/docs/guide/", "docs/guide/index.html", false, false},
		{"/docs/guide", "docs/guide", true, false},
		{"/search/index.json", "search/index.json", false, false},
		{"/search/index.json/", "search/index.json", false, true},
		{"/images/", "images/index.html", false, true},
		{"/nope", "nope", false, true},
	}
	for _, c := range cases {
		got := lookup(root, c.path, false)
		if got.file != nil {
			got.file.Close()
		}
		if got.name != c.name || got.redirect != c.redirect || (got.missing != nil) != c.missing {
			t.Errorf("lookup(%q) = name %q redirect %v missing %v, want %q %v %v",
				c.path, got.name, got.redirect, got.missing, c.name, c.redirect, c.missing)
		}
	}
}

func symlink(target, link string) error { return os.Symlink(target, link) }
