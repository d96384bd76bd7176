package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/report"
)

// versionedRepo is the repository of issue #8: branches main, release-1.x
// and feature/x; tags v1.0.0, v1.1.0 (annotated), v2.0.0-rc1 and
// not-a-version; plus a tag "broken" that names a blob, so it cannot be
// checked out. guide/install.md first appears in v1.1.0.
func versionedRepo(t *testing.T) *gittest.Repo {
	t.Helper()
	r := gittest.NewRepo(t, map[string]string{
		"docs/_index.md":      "---\ntitle: Product\n---\nProduct docs.\n",
		"docs/guide/intro.md": "# Introduction\n\nIntro of 1.0. See [the old page](/docs/product/gone/).\n",
	})
	r.Tag(t, "v1.0.0", false)
	r.Commit(t, map[string]string{"docs/guide/install.md": "# Install\n\nInstall 1.1.\n"}, "install page")
	r.Tag(t, "v1.1.0", true)
	r.Branch(t, "release-1.x")
	r.Commit(t, map[string]string{"docs/guide/install.md": "# Install\n\nInstall rc.\n"}, "rc")
	r.Tag(t, "v2.0.0-rc1", false)
	r.Tag(t, "not-a-version", false)
	r.Branch(t, "feature/x")
	r.Commit(t, map[string]string{"docs/guide/install.md": "# Install\n\nInstall main.\n"}, "main")
	r.Git(t, "tag", "broken", strings.TrimSpace(r.Git(t, "rev-parse", "HEAD:docs/_index.md")))
	return r
}

// TestVersionedBuildEndToEnd builds every branch and tag of one repository
// over Git smart HTTP: each version lands at /docs/<repo>/<version>/, the
// repository's own URL leads to the default version, the broken tag fails
// alone, and a tag deleted on the remote leaves the site on the next build.
func TestVersionedBuildEndToEnd(t *testing.T) {
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{})
	repo := versionedRepo(t)
	url := srv.Add(t, "product", repo)
	dir := t.TempDir()
	out := filepath.Join(dir, "site")
	cfg := filepath.Join(dir, "docweave.yaml")
	writeFile(t, cfg, fmt.Sprintf(`
repositories:
  - {name: product, url: %q}
build: {namespace_forges: never, max_retries: 0}
versioning: {enabled: true}
output: {directory: %s}
`, url, out))

	res := run(t, dir, nil, "build", "-c", cfg, "--log-format", "json")
	if res.code != 1 {
		t.Fatalf("exit code %d, want 1 (one version failed)\nstderr:\n%s", res.code, res.stderr)
	}
	rep := readReport(t, out)
	want := []report.RepositoryVersions{{
		Repository: "product", Default: "main",
		Built:  []string{"main", "v2.0.0-rc1", "v1.1.0", "v1.0.0", "feature/x", "release-1.x", "not-a-version"},
		Failed: []string{"broken"},
	}}
	if !reflect.DeepEqual(rep.Versions, want) {
		t.Fatalf("versions %+v\nwant %+v", rep.Versions, want)
	}
	var brokenIssue bool
	for _, is := range rep.Issues {
		brokenIssue = brokenIssue || (is.Repository == "product" && is.Version == "broken" && is.Severity == report.SeverityError)
	}
	if !brokenIssue {
		t.Fatalf("no issue for the broken tag: %+v", rep.Issues)
	}

	page := func(path string) (string, error) {
		data, err := os.ReadFile(filepath.Join(out, "public", filepath.FromSlash(path)))
		return string(data), err
	}
	for path, text := range map[string]string{
		"docs/product/v1.1.0/guide/install/index.html":      "Install 1.1.",
		"docs/product/main/guide/install/index.html":        "Install main.",
		"docs/product/feature-x/guide/install/index.html":   "Install rc.",
		"docs/product/v1.0.0/guide/intro/index.html":        "Intro of 1.0.",
		"docs/product/release-1.x/guide/install/index.html": "Install 1.1.",
	} {
		got, err := page(path)
		if err != nil || !strings.Contains(got, text) {
			t.Errorf("%s: want %q (err %v)", path, text, err)
		}
	}
	if _, err := page("docs/product/v1.0.0/guide/install/index.html"); !os.IsNotExist(err) {
		t.Errorf("v1.0.0 has an install page it never had: %v", err)
	}
	root, err := page("docs/product/index.html")
	if err != nil || !strings.Contains(root, "/docs/product/main/") {
		t.Fatalf("/docs/product/ does not lead to the default version (err %v):\n%s", err, root)
	}

	// The tag is deleted on the remote: the next build drops its pages.
	// Its links are verified: a broken link is reported per version.
	repo.Git(t, "tag", "-d", "v1.0.0")
	if again := run(t, dir, nil, "build", "-c", cfg, "--log-format", "json", "--verify-links"); again.code != 1 {
		t.Fatalf("second build exit %d\n%s", again.code, again.stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "public", "docs", "product", "v1.0.0")); !os.IsNotExist(err) {
		t.Fatalf("the deleted tag's pages stayed: %v", err)
	}
	rep2 := readReport(t, out)
	if len(rep2.Versions) != 1 || len(rep2.Versions[0].Built) != 6 {
		t.Fatalf("after deleting a tag: %+v", rep2.Versions)
	}
	if rep2.Links == nil {
		t.Fatal("no link verification in the report")
	}
	brokenIn := map[string]bool{}
	for _, p := range rep2.Links.BrokenLinks {
		if p.Repository == "product" && strings.HasSuffix(p.URL, "/docs/product/gone/") {
			brokenIn[p.Version] = true
		}
	}
	if len(brokenIn) != 6 || !brokenIn["main"] || !brokenIn["feature/x"] || brokenIn[""] {
		t.Fatalf("the broken link is reported in versions %v, want each of the 6", brokenIn)
	}
}
