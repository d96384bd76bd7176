package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docweave/docweave/internal/gittest"
)

// A paths entry that matches nothing stops `docweave build` before any
// clone, naming the file, line, key and the folders that exist; `validate
// --remote` says the same and `validate` alone stays offline.
func TestBuildChecksTheRemotesFirst(t *testing.T) {
	repo := gittest.NewRepo(t, map[string]string{"documentation/index.md": "# Home\n", "website/x.md": "# X\n"})
	dir := t.TempDir()
	cfg := filepath.Join(dir, "site.yaml")
	writeFile(t, cfg, "repositories:\n  - name: handbook\n    url: "+repo.FileURL()+"\n    paths: [docs]\noutput:\n  directory: out\n")
	want := `DOCS_PATH_MISSING site.yaml:4 repositories[0].paths[0] (handbook): documentation path "docs" is not in the repository at main (`
	folders := "folders at the top of the repository: documentation, website"
	res := run(t, dir, nil, "build", "-c", cfg)
	if res.code != 2 || !strings.Contains(res.stderr, want) || !strings.Contains(res.stderr, folders) {
		t.Fatalf("build: exit %d\n%s", res.code, res.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".docweave", "checkouts")); err == nil {
		t.Fatal("the build cloned before the check")
	}
	if res := run(t, dir, nil, "validate", "-c", cfg, "--remote"); res.code != 1 || !strings.Contains(res.stdout, want) || !strings.Contains(res.stdout, "refs: 1 branch (main)") {
		t.Fatalf("validate --remote: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	// A repository that does not exist fails alone, in the clone stage, as
	// before; the summary names the code once, then the line and key.
	writeFile(t, cfg, "repositories:\n  - name: handbook\n    url: "+repo.FileURL()+"\n    paths: [documentation]\n  - name: ghost\n    url: file:///nowhere/at/all.git\noutput:\n  directory: out\n")
	if res := run(t, dir, nil, "validate", "-c", cfg); res.code != 0 {
		t.Fatalf("validate without --remote reached the remote: exit %d\n%s", res.code, res.stderr)
	}
	res = run(t, dir, nil, "build", "-c", cfg, "--log-format", "json")
	summary := "  CLONE_NOT_FOUND ghost: list references of file:///nowhere/at/all.git: repository not found\n    site.yaml:6 repositories[1].url: no repository at this URL"
	if res.code != 1 || !strings.Contains(res.stdout, summary) || strings.Contains(res.stdout+res.stderr, "CLONE_NOT_FOUND: ") {
		t.Fatalf("build with a repository that does not exist: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	requireUniqueKeys(t, res.stderr) // the unit rendered logged "unit" twice
}
