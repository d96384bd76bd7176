package gitbook

import "testing"

// A GitBook figure becomes a Markdown image the render hook resolves: its
// caption is the alternative text when GitBook left that empty, and the
// title; a figure in code, or one that is not GitBook's one-line image,
// stays as written; every line keeps its number.
func TestFiguresBecomeMarkdownImages(t *testing.T) {
	in := "# Setup\n" +
		"<figure><img src=\"../../.gitbook/assets/flow (1).png\" alt=\"\"><figcaption><p>The <strong>flow</strong> of a request</p></figcaption></figure>\n" +
		"<figure><img src=\"diagram.svg\" alt=\"A [small] diagram\"></figure>\n" +
		"```html\n<figure><img src=\"example.png\" alt=\"\"></figure>\n```\n" +
		"<figure><blockquote>Not an image</blockquote></figure>\n"
	want := "# Setup\n" +
		"![The flow of a request](<../../.gitbook/assets/flow (1).png> \"The flow of a request\")\n" +
		"![A \\[small\\] diagram](diagram.svg)\n" +
		"```html\n<figure><img src=\"example.png\" alt=\"\"></figure>\n```\n" +
		"<figure><blockquote>Not an image</blockquote></figure>\n"
	if got := string(convertFigures([]byte(in))); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
