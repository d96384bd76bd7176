package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// canaries writes a file of the user's own into each directory and
// returns a check that they are all still there, unchanged.
func canaries(t *testing.T, dirs ...string) func(when string) {
	t.Helper()
	for _, d := range dirs {
		writeFile(t, filepath.Join(d, "canary.txt"), "mine:"+d)
	}
	return func(when string) {
		t.Helper()
		for _, d := range dirs {
			data, err := os.ReadFile(filepath.Join(d, "canary.txt"))
			if err != nil || string(data) != "mine:"+d {
				t.Errorf("%s: the user's file in %s was lost or changed: %q %v", when, d, data, err)
			}
		}
	}
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	list, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range list {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// TestBuildNeverDeletesTheUsersFiles runs docweave build into output
// directories that hold files of the user's own, each case with a canary:
// a directory refused (the configuration's, through -o, through -o ., and
// through a symbolic link) is left exactly as it was; a directory accepted
// keeps every entry docweave did not create.
func TestBuildNeverDeletesTheUsersFiles(t *testing.T) {
	repo := docsRepo(t, "Canary", 1)
	dir := t.TempDir()
	conf := filepath.Join(dir, "docweave.yaml")
	writeFile(t, conf, fmt.Sprintf("repositories:\n  - {name: solo, url: %q}\noutput: {directory: %s}\n",
		repo.FileURL(), filepath.Join(dir, "site")))
	check := canaries(t, dir)

	refused := func(name string, wantInStderr string, args ...string) {
		t.Helper()
		before := entries(t, dir)
		res := run(t, dir, nil, append([]string{"build", "-c", conf, "--log-format", "json"}, args...)...)
		if res.code != 2 || !strings.Contains(res.stderr, wantInStderr) {
			t.Errorf("%s: exit %d, want 2 with %q in:\n%s", name, res.code, wantInStderr, lastLines(res.stderr, 5))
		}
		if after := entries(t, dir); strings.Join(after, ",") != strings.Join(before, ",") {
			t.Errorf("%s: the configuration's directory changed from %v to %v", name, before, after)
		}
		check(name)
	}
	refused("-o the configuration's directory", "holds the configuration file", "-o", dir)
	refused("-o .", "holds the configuration file", "-o", ".")

	link := filepath.Join(t.TempDir(), "site")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	refused("-o a link to the configuration's directory", "symbolic links", "-o", link)
	// The case: output.directory in the file is a link to the
	// directory that holds the file.
	linked := filepath.Join(dir, "linked.yaml")
	writeFile(t, linked, fmt.Sprintf("repositories:\n  - {name: solo, url: %q}\noutput: {directory: %s}\n", repo.FileURL(), link))
	res := run(t, dir, nil, "validate", "-c", linked)
	if res.code == 0 || !strings.Contains(res.stderr, "output.directory") || !strings.Contains(res.stderr, "symbolic links") {
		t.Errorf("output.directory linked to the configuration's directory: validate exit %d\n%s", res.code, res.stderr)
	}
	before := entries(t, dir)
	if res := run(t, dir, nil, "build", "-c", linked, "--log-format", "json"); res.code != 2 {
		t.Errorf("build with output.directory linked to the configuration's directory: exit %d", res.code)
	}
	if after := entries(t, dir); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Errorf("the configuration's directory changed from %v to %v", before, after)
	}
	check("output.directory a link")

	// Accepted: the configured directory beside the configuration, then
	// -o . in a directory of the user's own. Their files stay.
	if res := run(t, dir, nil, "build", "-c", conf, "--log-format", "json"); res.code != 0 {
		t.Fatalf("build into ./site: exit %d\n%s", res.code, lastLines(res.stderr, 5))
	}
	check("after a build into ./site")
	if _, err := os.Stat(filepath.Join(dir, "site", "public", "index.html")); err != nil {
		t.Fatalf("no site: %v", err)
	}
	work := t.TempDir()
	mine := canaries(t, work)
	writeFile(t, filepath.Join(work, "notes", "todo.md"), "keep me")
	for i := 0; i < 2; i++ { // the second build cleans what the first made
		if res := run(t, work, nil, "build", "-c", conf, "-o", ".", "--log-format", "json"); res.code != 0 {
			t.Fatalf("build -o . in a directory of the user's: exit %d\n%s", res.code, lastLines(res.stderr, 5))
		}
	}
	mine("after two builds with -o .")
	if data, err := os.ReadFile(filepath.Join(work, "notes", "todo.md")); err != nil || string(data) != "keep me" {
		t.Errorf("the user's directory was touched: %q %v", data, err)
	}
	if _, err := os.Stat(filepath.Join(work, "public", "index.html")); err != nil {
		t.Errorf("no site in the -o directory: %v", err)
	}
	check("at the end")
}
