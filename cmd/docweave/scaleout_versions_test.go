package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/internal/natstest"
)

// appendYAML adds top-level keys to a configuration file.
func appendYAML(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// TestScaleOutVersioned runs multi-version documentation across separate
// processes on a three-node cluster: discover lists the refs in its own
// process, the versions are cloned by two acquire replicas, and the split
// build matches a single-process build of the same versions — same
// documentation fingerprint, same pages, same versions — with every version
// served by the docs server of another process.
func TestScaleOutVersioned(t *testing.T) {
	cluster := natstest.StartCluster(t, 3)
	repo := gittest.NewRepo(t, map[string]string{
		"docs/_index.md":  "---\ntitle: Product\n---\nProduct docs.\n",
		"docs/guide/a.md": "# A\n\nRelease one.\n",
		"docs/guide/b.md": "# B\n\nOnly in releases.\n",
		"docs/guide/c.md": "# C\n\nSee [a](../a/).\n",
	})
	repo.Tag(t, "v1.0.0", true)
	repo.Commit(t, map[string]string{"docs/guide/a.md": "# A\n\nRelease two.\n"}, "two")
	repo.Tag(t, "v2.0.0", false)
	repo.Remove(t, []string{"docs/guide/b.md"}, "main drops b")
	urls := []string{repo.FileURL()}
	const versioning = "versioning: {enabled: true}\n"

	refDir := t.TempDir()
	ref := filepath.Join(refDir, "ref.yaml")
	writeFile(t, ref, fmt.Sprintf("repositories:\n  - {name: repo0, url: %q}\noutput: {directory: %s}\n%s", urls[0], filepath.Join(refDir, "site"), versioning))
	if res := run(t, refDir, nil, "build", "-c", ref, "--log-format", "json"); res.code != 0 {
		t.Fatalf("reference build: %d\n%s", res.code, res.stderr)
	}
	want := readReport(t, filepath.Join(refDir, "site"))

	ports := freePorts(t, 4)
	start := func(name string, args ...string) {
		cfg, dir := splitConfig(t, name, cluster.URLs(), urls, ports)
		appendYAML(t, cfg, versioning)
		startProcess(t, dir, append(args, "-c", cfg)...)
	}
	start("discover", "stage", "--stages", "discover", "--metrics-addr", "127.0.0.1:0")
	// The former names of the renamed stages (join was prune, finish was
	// fingerprint) still run them: an upgraded deployment keeps working.
	start("acquire1", "stage", "--stages", "clone,prune", "--metrics-addr", "127.0.0.1:0")
	start("acquire2", "stage", "--stages", "clone,prune", "--metrics-addr", "127.0.0.1:0")
	start("render", "stage", "--stages", "render,assemble,fingerprint,publishreload", "--metrics-addr", "127.0.0.1:0")
	start("serve", "serve", "--servers", "admin,docs")
	admin := fmt.Sprintf("127.0.0.1:%d", ports[2])
	docsURL := fmt.Sprintf("http://127.0.0.1:%d", ports[0])

	for path, text := range map[string]string{
		"/docs/repo0/v1.0.0/guide/a/": "Release one.",
		"/docs/repo0/v2.0.0/guide/b/": "Only in releases.",
		"/docs/repo0/main/guide/a/":   "Release two.",
	} {
		deadline := time.Now().Add(90 * time.Second)
		for {
			if code, body := httpGet(docsURL + path); code == 200 && strings.Contains(body, text) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the split deployment never served %s", path)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	if code, _ := httpGet(docsURL + "/docs/repo0/main/guide/b/"); code != 404 {
		t.Fatalf("main serves a page it dropped: %d", code)
	}
	st := triggerAndWait(t, admin, nil) // nothing moved since the start-up build
	if st.State != "skipped" || st.Report.DocFilesHash != want.DocFilesHash || st.Report.RenderedPages != want.RenderedPages ||
		!reflect.DeepEqual(st.Report.Versions, want.Versions) {
		t.Fatalf("split: %s hash %s pages %d versions %+v\nsingle process: hash %s pages %d versions %+v",
			st.State, st.Report.DocFilesHash, st.Report.RenderedPages, st.Report.Versions, want.DocFilesHash, want.RenderedPages, want.Versions)
	}
	if len(want.Versions) != 1 || !reflect.DeepEqual(want.Versions[0].Built, []string{"main", "v2.0.0", "v1.0.0"}) {
		t.Fatalf("reference versions %+v", want.Versions)
	}
}
