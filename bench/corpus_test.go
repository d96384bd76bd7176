package bench

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docweave/docweave/internal/gittest"
)

func TestGivenTreeCountsMarkdownAndTheFilesThatAreNotPages(t *testing.T) {
	repo := gittest.NewRepo(t, map[string]string{
		"README.md":                       "# Outside the documentation root\n",
		"docs/_index.md":                  "# Home of the section\n",
		"docs/index.md":                   "# Loses to _index.md\n",
		"docs/guide.md":                   "# A guide\n",
		"docs/upper.MDX":                  "# Upper-case suffix\n",
		"docs/long.markdown":              "# Long suffix\n",
		"docs/draft.md":                   "---\ndraft: true\n---\n# Unfinished\n",
		"docs/jekyll.md":                  "---\npublished: false\n---\n# Unpublished\n",
		"docs/own.md":                     "---\nbuild:\n  render: never\n---\nA fragment.\n",
		"docs/parts/_index.md":            "---\ncascade:\n  build:\n    render: never\n    list: never\n---\n",
		"docs/parts/piece.md":             "A piece included elsewhere.\n",
		"docs/parts/deeper/more.md":       "Another piece.\n",
		"docs/SUMMARY.md":                 "* [Guide](guide.md)\n",
		"docs/.bookignore":                "scratch/\n/todo.md\n# a comment\n",
		"docs/scratch/notes.md":           "# Notes\n",
		"docs/todo.md":                    "# To do\n",
		"docs/.hidden/secret.md":          "# Hidden\n",
		"docs/picture.png":                "not Markdown",
		"docs/broken-front-matter.md":     "---\ndraft: [\n---\n# Still a page\n",
		"docs/toml.md":                    "+++\ndraft = true\n+++\nTOML front matter is not read.\n",
		"docs/rule.md":                    "---\n\nA thematic break, not front matter.\n",
		"docs/sub/index.md":               "# A directory's page\n",
		"docs/sub/draft-false.md":         "---\ndraft: false\n---\n# Published\n",
		"docs/sub/render-always.md":       "---\nbuild:\n  render: always\n---\n# Rendered\n",
		"docs/sub/.hidden-file.md":        "# Hidden\n",
		"docs/sub/cascade-list/_index.md": "---\ncascade:\n  - build:\n      render: never\n---\n",
		"docs/sub/cascade-list/leaf.md":   "Not a page either.\n",
	})
	g, err := readGivenTree(context.Background(), filepath.Join(repo.Dir(), ".git"), "HEAD", []string{"./docs/"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"docs/index.md":                   notPageShadowed,
		"docs/draft.md":                   notPageDraft,
		"docs/jekyll.md":                  notPageDraft,
		"docs/own.md":                     notPageRender,
		"docs/parts/_index.md":            notPageRender,
		"docs/parts/piece.md":             notPageRender,
		"docs/parts/deeper/more.md":       notPageRender,
		"docs/SUMMARY.md":                 notPageSummary,
		"docs/scratch/notes.md":           notPageBook,
		"docs/todo.md":                    notPageBook,
		"docs/sub/cascade-list/_index.md": notPageRender,
		"docs/sub/cascade-list/leaf.md":   notPageRender,
	}
	// 24 Markdown files under docs/ but the two hidden ones.
	if len(g.Markdown) != 22 {
		t.Errorf("given %d Markdown files, want 22: %v", len(g.Markdown), g.Markdown)
	}
	for p, reason := range want {
		if g.NotPages[p] != reason {
			t.Errorf("%s: not a page because %q, want %q", p, g.NotPages[p], reason)
		}
	}
	for p, reason := range g.NotPages {
		if _, ok := want[p]; !ok {
			t.Errorf("%s counted as not a page (%s)", p, reason)
		}
	}
}

var (
	docweaveOnce sync.Once
	docweaveBin  string
	docweaveErr  error
)

// docweaveBinary builds cmd/docweave once for the tests that run it.
func docweaveBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the docweave binary and runs real builds")
	}
	docweaveOnce.Do(func() {
		dir, err := os.MkdirTemp("", "docweave-bench-bin-")
		if err != nil {
			docweaveErr = err
			return
		}
		docweaveBin = filepath.Join(dir, "docweave")
		var out bytes.Buffer
		build := exec.Command("go", "build", "-o", docweaveBin, "../cmd/docweave")
		build.Stdout, build.Stderr = &out, &out
		if err := build.Run(); err != nil {
			docweaveErr = err
			docweaveBin = out.String()
		}
	})
	if docweaveErr != nil {
		t.Fatalf("build docweave: %v\n%s", docweaveErr, docweaveBin)
	}
	return docweaveBin
}

// tinyPNG is a 1×1 PNG: an image file as a repository holds one.
const tinyPNG = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82"

func TestCorpusMeasuresEachRepositoryAloneAndAllInOneSite(t *testing.T) {
	binary := docweaveBinary(t)
	// plain: five Markdown files, of which two are not pages (an index.md
	// beside _index.md, a draft) and one is over the corpus's page limit:
	// left out 1. Its guide shows a published image, a missing one and
	// an external one.
	plain := gittest.NewRepo(t, map[string]string{
		"docs/_index.md":       "# Plain fixture\n\nThe section's own page.\n",
		"docs/index.md":        "# Shadowed\n\nHugo reads the _index.md of this directory instead.\n",
		"docs/guide.md":        "# Guide\n\n![a drawing](img/drawing.png)\n\n![a lost photo](img/photo.png)\n\n![a remote badge](https://example.invalid/badge.png)\n",
		"docs/draft.md":        "---\ndraft: true\n---\n# Not yet\n",
		"docs/huge.md":         "# Huge\n\n" + strings.Repeat("A sentence that makes this page far too long. ", 100) + "\n",
		"docs/img/drawing.png": tinyPNG,
	})
	// book: a GitBook space; SUMMARY.md is its table of contents.
	book := gittest.NewRepo(t, map[string]string{
		"README.md":  "# Book fixture\n\nThe space's first page.\n",
		"SUMMARY.md": "# Table of contents\n\n* [Book fixture](README.md)\n* [Chapter](chapter.md)\n",
		"chapter.md": "# Chapter\n\nThe only chapter.\n",
	})
	// The corpus names them through ${VAR}, as bench/corpus.example.yaml does.
	t.Setenv("CORPUS_PLAIN", plain.Dir())
	t.Setenv("CORPUS_BOOK", book.Dir())
	corpusFile := filepath.Join(t.TempDir(), "corpus.yaml")
	if err := os.WriteFile(corpusFile, []byte(`repositories:
  - name: plain
    url: file://${CORPUS_PLAIN}
    paths: [docs]
  - name: book
    url: file://${CORPUS_BOOK}
    paths: ["."]
build:
  limits:
    max_page_bytes: 2000
`), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	res, err := RunCorpus(ctx, CorpusOptions{File: corpusFile, Binary: binary, WorkDir: t.TempDir(), Together: true, Timeout: 4 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	var table bytes.Buffer
	if err := WriteCorpusTable(&table, res); err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 3 {
		t.Fatalf("%d rows, want plain, book and the one site:\n%s", len(res.Rows), table.String())
	}
	type figures struct {
		name                                  string
		exit, given, notPages, rendered, left int
		referenced, published, external       int
	}
	want := []figures{
		{"plain", 0, 5, 2, 2, 1, 2, 1, 1},
		{"book", 0, 3, 1, 2, 0, 0, 0, 0},
		{AllRow, 0, 8, 3, 4, 1, 2, 1, 1},
	}
	for i, w := range want {
		r := res.Rows[i]
		got := figures{r.Name, r.ExitCode, r.Given, r.NotPages, r.Rendered, r.LeftOut, r.Images.Referenced, r.Images.Published, r.Images.External}
		if got != w {
			t.Errorf("row %d: got %+v\nwant %+v\n%s", i, got, w, table.String())
		}
		if r.Seconds <= 0 || r.PeakRSSMB <= 0 {
			t.Errorf("%s: time %.2f s, peak %.0f MB", r.Name, r.Seconds, r.PeakRSSMB)
		}
	}
	for _, r := range []CorpusRow{res.Rows[0], res.Rows[2]} {
		if r.Issues["PAGE_TOO_LARGE"] != 1 || r.Issues["INDEX_SHADOWED"] != 1 {
			t.Errorf("%s: issues %v, want PAGE_TOO_LARGE and INDEX_SHADOWED once each", r.Name, r.Issues)
		}
		if len(r.Images.Missing) != 1 || !strings.HasSuffix(r.Images.Missing[0], "/img/photo.png") {
			t.Errorf("%s: missing images %v", r.Name, r.Images.Missing)
		}
	}
	all := res.Rows[2]
	if len(all.Parts) != 2 || all.Parts[0].LeftOut != 1 || all.Parts[1].Rendered != 2 || all.Parts[0].Images.Published != 1 {
		t.Errorf("parts of the one site: %+v", all.Parts)
	}
	for _, line := range []string{
		"| plain | 0 | 5 | 2 | 2 | 1 | 2 / 1 | 1 |",
		"| book | 0 | 3 | 1 | 2 | 0 | 0 / 0 | 0 |",
		"| all (one site) | 0 | 8 | 3 | 4 | 1 | 2 / 1 | 1 |",
		"| PAGE_TOO_LARGE | 1 | 0 | 1 |",
		"| " + notPageSummary + " | 0 | 1 | 1 |",
	} {
		if !strings.Contains(table.String(), line) {
			t.Errorf("table lacks %q:\n%s", line, table.String())
		}
	}
}

func TestCorpusTableShowsABuildThatLeftNoReport(t *testing.T) {
	res := &CorpusResult{Corpus: "c.yaml", Docweave: "docweave", Rows: []CorpusRow{
		{Name: "broken", ExitCode: 2, Given: 10, NotPages: 1, Error: "publish: maximum payload exceeded", Issues: map[string]int{}},
		{Name: "slow", ExitCode: -1, TimedOut: true, Given: 3, Rendered: 3, Issues: map[string]int{"LINK_UNRESOLVED": 2}},
	}}
	var b bytes.Buffer
	if err := WriteCorpusTable(&b, res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| broken | 2 | 10 | 1 | no report | — |",
		"| slow | timed out | 3 | 0 | 3 | 0 |",
		"| LINK_UNRESOLVED | 0 | 2 |",
		"broken: no build report: publish: maximum payload exceeded",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}
