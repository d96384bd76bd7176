package mdlinks

import (
	"reflect"
	"slices"
	"testing"
)

// Links and images are read as goldmark reads them, with their lines; a
// source named in raw HTML (a GitBook figure, a sized image, a video) is
// read too, and marked HTML; nothing in code is.
func TestFindReadsMarkdownAndRawHTMLSources(t *testing.T) {
	body := []byte("See [the guide](guide.md) and ![a chart](img/chart.png).\n" +
		"\n" +
		"<figure><img src=\"../.gitbook/assets/flow.png\" alt=\"\"><figcaption><p>Flow</p></figcaption></figure>\n" +
		"\n" +
		"Inline <img height=\"50%\" src='images/tab.png'/> in a sentence.\n" +
		"\n" +
		"<video controls poster=\"media/still.jpg\">\n" +
		"<source src=\"media/demo.mp4\" type=\"video/mp4\">\n" +
		"</video>\n" +
		"\n" +
		"```html\n<img src=\"not-a-source.png\">\n```\n" +
		"\n" +
		"`<img src=\"inline-code.png\">` and <img src=\"a&amp;b.png\">\n")
	want := []Link{
		{Dest: "guide.md", Line: 1},
		{Dest: "img/chart.png", Line: 1, Image: true},
		{Dest: "../.gitbook/assets/flow.png", Line: 3, Image: true, HTML: true},
		{Dest: "images/tab.png", Line: 5, Image: true, HTML: true},
		{Dest: "media/still.jpg", Line: 7, Image: true, HTML: true},
		{Dest: "media/demo.mp4", Line: 8, Image: true, HTML: true},
		{Dest: "a&b.png", Line: 15, Image: true, HTML: true},
	}
	got := Find(body)
	for i := range got {
		got[i].At, got[i].End, got[i].Quoted = 0, 0, false
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Find:\n got %+v\nwant %+v", got, want)
	}
}

func TestInternalAndPath(t *testing.T) {
	for dest, internal := range map[string]bool{
		"guide.md": true, "/docs/a.md": true, "#top": false, "https://x.org/a.png": false,
		"//cdn.example/a.png": false, "mailto:a@b": false, "page.md#fn:1": true, "?q=a:b": true, "data:image/png;base64,AA": false, "": false,
	} {
		if got := Internal(dest); got != internal {
			t.Errorf("Internal(%q) = %v, want %v", dest, got, internal)
		}
	}
	if got := Path(`securing%5c_nats/tls.md#x`); got != "securing_nats/tls.md" {
		t.Errorf("Path = %q", got)
	}
	if got := Path(`a\_b.md?x=1`); got != "a_b.md" {
		t.Errorf("Path = %q", got)
	}
}

// GitBook's file block names a file the page offers for download: it is
// found like a link, so the clone stage checks it out and the site
// publishes it.
func TestFindGitBookFileSources(t *testing.T) {
	body := []byte("Intro.\n\n{% file src=\"../.gitbook/assets/plan.pdf\" %}\nThe plan\n{% endfile %}\n\n```\n{% file src=\"in-code.pdf\" %}\n```\n")
	got := Find(body)
	if len(got) != 1 || got[0].Dest != "../.gitbook/assets/plan.pdf" || got[0].Line != 3 {
		t.Errorf("Find = %+v, want the file's source on line 3", got)
	}
}

// Links in a footnote's indented text, a table's cells and a definition
// list are read, as Hugo renders them.
func TestFindReadsFootnotesTablesAndDefinitions(t *testing.T) {
	body := []byte("Text.[^1]\n\n[^1]:\n    See [the plugin][p].\n\n    [p]: plugins/privacy.md\n\n| a | b |\n|---|---|\n| [x](x.md) | y |\n\nTerm\n:   [def](def.md)\n")
	var got []string
	for _, l := range Find(body) {
		got = append(got, string(body[l.At:l.End]))
	}
	slices.Sort(got)
	if want := []string{"def.md", "plugins/privacy.md", "x.md"}; !reflect.DeepEqual(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
}
