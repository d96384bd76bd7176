package gitbook

import (
	"reflect"
	"testing"

	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/internal/links"
)

func TestSummaryListsLinkedPagesInOrder(t *testing.T) {
	u := links.Unit{Root: "gb", Pages: map[string]bool{"gb/README.md": true, "gb/guide/README.md": true, "gb/guide/setup.md": true, "gb/SUMMARY.md": true},
		Dirs: map[string]bool{"gb/guide": true}}
	data := []byte("# Contents\n\n* [Welcome](README.md)\n* [Guide](guide/)\n  * [Set up](guide/setup.md \"tip\")\n  * [Again](guide/setup.md)\n* [Site](https://example.org/)\n")
	want := map[string]dialect.NavEntry{
		"gb/README.md":       {Weight: 1, Title: "Welcome"},
		"gb/guide/README.md": {Weight: 2, Title: "Guide"},
		"gb/guide/setup.md":  {Weight: 3, Title: "Set up", Parent: "Guide"},
	}
	if got := Summary(data, "gb/SUMMARY.md", u); !reflect.DeepEqual(got, want) {
		t.Errorf("Summary = %v, want %v", got, want)
	}
	if f := SummaryFile(u, Config{}); f != "gb/SUMMARY.md" {
		t.Errorf("SummaryFile = %q", f)
	}
	toc := Config{}
	toc.Structure.Summary = "TOC.md"
	if !IsSummaryFile(u, Config{}, "gb/SUMMARY.md") || IsSummaryFile(u, toc, "gb/SUMMARY.md") {
		t.Error("IsSummaryFile does not follow .gitbook.yaml's structure.summary")
	}
}

// GitBook's editor escapes Markdown characters in the links and titles it
// writes, groups the entries under headings and nests them.
func TestSummaryReadsEscapesAndGroups(t *testing.T) {
	u := links.Unit{Root: "gb", Pages: map[string]bool{"gb/first_steps/new_things.md": true, "gb/lights/on_off.md": true, "gb/lights/dim.md": true}}
	data := []byte("# Table of contents\n\n## First Steps\n\n* [What\\_s new\\!](first\\_steps/new\\_things.md)\n\n## Lights & Lamps\n\n* [On and off](lights/on\\_off.md)\n  * [Dimming](lights/dim.md)\n")
	want := map[string]dialect.NavEntry{
		"gb/first_steps/new_things.md": {Weight: 1, Title: "What_s new!", Group: "First Steps"},
		"gb/lights/on_off.md":          {Weight: 2, Title: "On and off", Group: "Lights & Lamps"},
		"gb/lights/dim.md":             {Weight: 3, Title: "Dimming", Group: "Lights & Lamps", Parent: "On and off"},
	}
	if got := Summary(data, "gb/SUMMARY.md", u); !reflect.DeepEqual(got, want) {
		t.Errorf("Summary = %v, want %v", got, want)
	}
}

// .gitbook.yaml's root moves the space, its SUMMARY.md and the links in it.
func TestSummaryFileFollowsTheSpacesRoot(t *testing.T) {
	u := links.Unit{Root: "gb", Pages: map[string]bool{"gb/SUMMARY.md": true, "gb/book/SUMMARY.md": true, "gb/book/intro.md": true}}
	g, problem := ParseConfig([]byte("root: ./book/\n"))
	if problem != "" {
		t.Fatal(problem)
	}
	file := SummaryFile(u, g)
	if file != "gb/book/SUMMARY.md" || !IsSummaryFile(u, g, file) || IsSummaryFile(u, g, "gb/SUMMARY.md") {
		t.Fatalf("SummaryFile = %q", file)
	}
	if got := Summary([]byte("* [Intro](intro.md)\n"), file, u); got["gb/book/intro.md"].Weight != 1 {
		t.Errorf("Summary = %v: the link is not read from the space's root", got)
	}
	if g, _ := ParseConfig([]byte("root: ../../elsewhere\n")); g.rootIn(u) != "gb/elsewhere" {
		t.Errorf("a root above the unit is %q", g.rootIn(u))
	}
	// The root is a path from the repository's root; the unit holds the
	// documentation root docs/'s contents.
	u.DocRoots = []string{"docs"}
	for root, want := range map[string]string{"./docs/": "gb", "docs/book": "gb/book", "./site/": "gb"} {
		if g, _ := ParseConfig([]byte("root: " + root + "\n")); g.rootIn(u) != want {
			t.Errorf("root %s with the documentation root docs is %q, want %q", root, g.rootIn(u), want)
		}
	}
}
