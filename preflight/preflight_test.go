package preflight

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/gittest"
)

// A configuration with one good repository and one mistake of each kind,
// its remotes served over smart HTTP and file://: each mistake is named
// once with its file, line, key and what does exist.
func TestCheckNamesEachMistakeWithItsLineAndWhatExists(t *testing.T) {
	good := gittest.NewRepo(t, map[string]string{"docs/index.md": "# Home\n", "guides/a.md": "# A\n", "src/main.go": "package main\n"})
	good.Tag(t, "v2.0", false)
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{})
	url := srv.Add(t, "org/good", good)
	dir := t.TempDir()
	file := filepath.Join(dir, "site.yaml")
	text := `repositories:
  - name: good
    url: ` + url + `
  - name: ghost
    url: ` + srv.URL() + `/org/ghost.git
  - name: typo-branch
    url: ` + good.FileURL() + `
    branch: mian
  - name: typo-path
    url: ` + good.FileURL() + `
    paths:
      - docs
      - guide
      - src/main.go
output:
  directory: out
`
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(file, config.ModeDirect)
	if err != nil {
		t.Fatal(err)
	}
	results := Check(context.Background(), cfg, 2)
	var out bytes.Buffer
	if n := Print(&out, results); n != 4 {
		t.Fatalf("%d problems, want 4:\n%s", n, out.String())
	}
	for _, want := range []string{
		"good  " + url + "\n  refs: 1 branch (main) · 1 tag (v2.0) · default main\n  main (",
		"): docs found\n",
		"CLONE_NOT_FOUND " + file + ":5 repositories[1].url (ghost): no repository at this URL (",
		"BRANCH_NOT_FOUND " + file + ":8 repositories[2].branch (typo-branch): ",
		`branch "mian" not found on the remote; the remote has branches main and tags v2.0; leave branch out for the default, main`,
		"DOCS_PATH_MISSING " + file + `:13 repositories[3].paths[1] (typo-path): documentation path "guide" is not in the repository at main (`,
		"); folders at the top of the repository: docs, guides, src\n",
		"DOCS_PATH_MISSING " + file + `:14 repositories[3].paths[2] (typo-path): documentation path "src/main.go" is a file, not a folder, at main (`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Count(out.String(), "CLONE_NOT_FOUND") != 1 {
		t.Errorf("the code is named more than once:\n%s", out.String())
	}
}

// A remote that cannot be reached says nothing about the file: reported,
// not counted.
func TestUnreachableRemoteIsNotAProblem(t *testing.T) {
	cfg := config.Default()
	cfg.Repositories = []config.Repository{{Name: "away", URL: "http://127.0.0.1:1/org/away.git"}}
	results := Check(context.Background(), &cfg, 1)
	var out bytes.Buffer
	if n := Print(&out, results); n != 0 || results[0].Unreachable == nil || !strings.Contains(out.String(), "not checked: ") {
		t.Fatalf("%d problems, unreachable %v:\n%s", n, results[0].Unreachable, out.String())
	}
}
