package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/report"
)

// fixtureFiles reads a fixture repository under testdata/fixtures.
func fixtureFiles(t *testing.T, name string) map[string]string {
	t.Helper()
	root := filepath.Join("testdata", "fixtures", name)
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("fixture %s: %v (%d files)", name, err, len(files))
	}
	return files
}

// TestLinksOfTheFixtureResolveAndTheVerifierAgrees builds the links
// fixture (testdata/fixtures/links: a repository linking its pages in
// every form forges and GitBook use) with --verify-links. Every link to a
// page or file leads to it (a file outside the documentation roots to its
// published copy); the one that leads nowhere, a page never written, is
// reported with its line, and it is exactly the broken internal link the
// verifier finds.
func TestLinksOfTheFixtureResolveAndTheVerifierAgrees(t *testing.T) {
	dir := t.TempDir()
	repo := gittest.NewRepo(t, fixtureFiles(t, "links"))
	out := filepath.Join(dir, "site")
	cfg := filepath.Join(dir, "docweave.yaml")
	writeFile(t, cfg, fmt.Sprintf(`repositories:
  - {name: lantern, url: %q}
daemon:
  link_verification: {rate_limit_delay: 0s}
output: {directory: %s}
`, repo.FileURL(), out))
	res := run(t, dir, nil, "build", "-c", cfg, "--log-format", "json", "--verify-links")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, lastLines(res.stderr, 20))
	}
	rep := readReport(t, out)
	var unresolved []string
	for _, is := range rep.Issues {
		if is.Code == report.CodeLinkUnresolved {
			unresolved = append(unresolved, is.Path+": "+is.Message)
		}
	}
	sort.Strings(unresolved)
	// The source file outside the documentation roots is published with
	// the files pages reference (docs/repositories.md, "Referenced files").
	want := []string{
		`docs/README.md: line 18: link "notes/missing.md" leads to no page or file of the repository's documentation`,
	}
	if strings.Join(unresolved, "\n") != strings.Join(want, "\n") {
		t.Errorf("LINK_UNRESOLVED issues:\n%s\nwant:\n%s", strings.Join(unresolved, "\n"), strings.Join(want, "\n"))
	}
	if rep.Links == nil || rep.Links.Status != report.LinksComplete || rep.Links.Broken != 1 || rep.Links.Internal < 10 {
		t.Fatalf("link verification: %+v", rep.Links)
	}
	var broken []string
	for _, b := range rep.Links.BrokenLinks {
		broken = append(broken, b.URL)
	}
	sort.Strings(broken)
	if got := strings.Join(broken, " "); got != "/docs/lantern/notes/missing.md" {
		t.Errorf("broken links the verifier found: %s", got)
	}
	if data, err := os.ReadFile(filepath.Join(out, "public", "docs", "lantern", "_files", "src", "lantern.go")); err != nil || len(data) == 0 {
		t.Errorf("the source file the README links to is not published: %v", err)
	}
	// Old URLs of the install page (aliases, url) redirect to it inside
	// the repository's namespace.
	for _, old := range []string{"setup", "install"} {
		data, err := os.ReadFile(filepath.Join(out, "public", "docs", "lantern", old, "index.html"))
		if err != nil || !strings.Contains(string(data), "/docs/lantern/guide/install/") {
			t.Errorf("/docs/lantern/%s/ does not redirect to the install page: %v", old, err)
		}
	}
	if data, err := os.ReadFile(filepath.Join(out, "public", "_redirects")); err != nil ||
		!strings.Contains(string(data), "/docs/lantern/setup/ /docs/lantern/guide/install/ 301\n") ||
		!strings.Contains(string(data), "/docs/lantern/install/ /docs/lantern/guide/install/ 301\n") {
		t.Errorf("the site's redirect map lacks the install page's old URLs: %v\n%s", err, data)
	}
	// Not <link rel="alternate">: it names the page's Markdown copy.
	md := regexp.MustCompile(`(?:<a\s[^>]*?href|src)="(/[^"]*\.md)[#"?]`)
	public := filepath.Join(out, "public")
	pages := 0
	err := filepath.WalkDir(public, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		pages++
		data, err := os.ReadFile(p)
		for _, m := range md.FindAllStringSubmatch(string(data), -1) {
			if m[1] != "/docs/lantern/notes/missing.md" {
				t.Errorf("%s keeps a link to a Markdown file: %s", p, m[1])
			}
		}
		return err
	})
	if err != nil || pages < 5 {
		t.Fatalf("walked %d pages: %v", pages, err)
	}
}
