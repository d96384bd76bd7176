package docs

import (
	"strings"
	"testing"
)

func TestContentTypeOf(t *testing.T) {
	cases := []struct{ name, content, want string }{
		{"index.html", "<p>x</p>", "text/html"},
		{"search/index.json", "[]", "application/json"},
		{"css/a.css", "body{}", "text/css"},
		{"LICENSE", "plain words", "text/plain"},           // sniffed
		{"blob", "\x89PNG\r\n\x1a\n\x00\x00", "image/png"}, // sniffed
	}
	for _, c := range cases {
		r := strings.NewReader(c.content)
		got, err := contentTypeOf(c.name, r)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("contentTypeOf(%q) = %q, want %s", c.name, got, c.want)
		}
		if r.Len() != len(c.content) {
			t.Errorf("contentTypeOf(%q) left the reader at %d, want the start", c.name, len(c.content)-r.Len())
		}
	}
}
