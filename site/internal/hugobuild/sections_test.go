package hugobuild

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docweave/docweave/site/internal/model"
	"github.com/docweave/docweave/site/internal/pages"
)

func TestScanContentDecidesPerDirectory(t *testing.T) {
	content := filepath.Join(t.TempDir(), "content")
	writeFiles(t, content, map[string]string{
		"gh/tool/guide/setup.md":     "# Setup",
		"gh/tool/guide/deep/x.md":    "x",
		"gh/tool/index.md":           "# Tool",
		"gh/tool/images/logo.png":    "png",
		"gh/tool/ref/_index.md":      "# Reference",
		"gh/tool/ref/index.markdown": "shadowed",
		"gh/tool/ref/flags.md":       "flags",
		"b/z/_index.md":              "z",
		"b/z/index.md":               "shadowed too",
		"gh/tool/.github/pr.md":      "hidden",
		"plain/api-notes/read_me.md": "r",
	})
	repos := []model.Repository{{Name: "tool", Forge: "github-com", ContentPath: "gh/tool"}, {Name: "plain", ContentPath: "plain"}}
	scan, err := ScanContent(content, repos)
	if err != nil {
		t.Fatal(err)
	}

	wantGenerated := map[string]string{
		".":                  "Documentation",
		"b":                  "B",
		"gh":                 "github-com",
		"gh/tool/guide":      "Guide",
		"gh/tool/guide/deep": "Deep",
		"plain":              "plain",
		"plain/api-notes":    "Api notes",
	}
	if !reflect.DeepEqual(scan.Generated, wantGenerated) {
		t.Errorf("Generated = %v\nwant        %v", scan.Generated, wantGenerated)
	}
	if want := map[string]string{"gh/tool": "gh/tool/index.md"}; !reflect.DeepEqual(scan.IndexFiles, want) {
		t.Errorf("IndexFiles = %v, want %v", scan.IndexFiles, want)
	}
	if want := []string{"b/z/index.md", "gh/tool/ref/index.markdown"}; !reflect.DeepEqual(scan.Shadowed, want) {
		t.Errorf("Shadowed = %v, want %v", scan.Shadowed, want)
	}
	if scan.Markdown != 9 {
		t.Errorf("Markdown = %d, want 9 (hidden directories skipped)", scan.Markdown)
	}
	if _, ok := scan.Generated["gh/tool/images"]; ok {
		t.Error("a directory without Markdown got a section page")
	}
}

func TestPlanContentMakesReadmesDirectoryPages(t *testing.T) {
	tree := pages.Tree{
		Dirs: []string{".", "r", "r/a", "r/b", "r/c", "r/d"},
		Markdown: []string{
			"r/README.md",                   // the repository's page
			"r/a/readme.markdown",           // any case and Markdown suffix
			"r/b/index.md", "r/b/README.md", // index.md wins; README stays a page
			"r/c/_index.md", "r/c/README.md", // so does _index.md
			"r/d/Readme.md", "r/d/page.md",
		},
	}
	scan := PlanContent(tree, []model.Repository{{Name: "r", ContentPath: "r"}}, map[string]bool{"r/d/Readme.md": true})
	want := map[string]string{"r": "r/README.md", "r/a": "r/a/readme.markdown", "r/b": "r/b/index.md"}
	if !reflect.DeepEqual(scan.IndexFiles, want) {
		t.Errorf("IndexFiles = %v, want %v", scan.IndexFiles, want)
	}
	// r/d's README is left out (it cannot render): r/d gets a generated page.
	if scan.Generated["r/d"] != "D" || scan.Markdown != 7 {
		t.Errorf("Generated = %v, Markdown = %d; want r/d generated and 7 pages", scan.Generated, scan.Markdown)
	}
}

func TestScanContentReportsAMissingDirectory(t *testing.T) {
	_, err := ScanContent(filepath.Join(t.TempDir(), "nope"), nil)
	if err == nil || !strings.Contains(err.Error(), "scan content") {
		t.Fatalf("err = %v, want a wrapped scan error", err)
	}
}

func TestWriteSectionsWritesTitlesAsFrontMatter(t *testing.T) {
	dir := t.TempDir()
	err := WriteSections(dir, map[string]string{".": "Documentation", "a/b": `Quotes "and" colons: yes`}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for rel, want := range map[string]string{"_index.md": "Documentation", "a/b/_index.md": `Quotes "and" colons: yes`} {
		data, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		var front struct{ Title string }
		if err := json.Unmarshal(data, &front); err != nil {
			t.Fatalf("%s: front matter is not JSON: %v", rel, err)
		}
		if front.Title != want {
			t.Errorf("%s: title = %q, want %q", rel, front.Title, want)
		}
	}
}

func TestHumanize(t *testing.T) {
	for in, want := range map[string]string{
		"getting-started": "Getting started",
		"api_reference":   "Api reference",
		"FAQ":             "FAQ",
		"élan":            "Élan",
		"--":              "--",
	} {
		if got := humanize(in); got != want {
			t.Errorf("humanize(%q) = %q, want %q", in, got, want)
		}
	}
}

// writeFiles creates files (slash paths relative to dir) with the given
// contents.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, content := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(content), Mode: 0o644}
	}
	if err := os.CopyFS(dir, fsys); err != nil {
		t.Fatal(err)
	}
}
