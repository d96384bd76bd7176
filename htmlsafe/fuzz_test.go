package htmlsafe

import (
	"bytes"
	"testing"
)

// FuzzSanitizeMarkdown: whatever the page, the sanitized page renders
// (with raw HTML passed through, as docweave renders) without active
// markup, and sanitizing it again changes nothing. The seed corpus is in
// testdata/fuzz/FuzzSanitizeMarkdown.
func FuzzSanitizeMarkdown(f *testing.F) {
	for _, seed := range []string{
		"<script>alert(1)</script>", "x <img src=x onerror=alert(1)>", "[a](javascript:alert(1))",
		"> <div\n> onclick=x>q</div>", "<foo>\n[x](javascript:alert(1))\n</foo>", "---\ntitle: x\n---\n<b>ok</b>",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out := SanitizeMarkdown(src)
		_, body := splitFrontMatter(out) // front matter is data, never rendered as Markdown
		if a := activeMarkup(render(t, body)); a != "" {
			t.Fatalf("active markup %s survives in %q (from %q)", a, out, src)
		}
		if again := SanitizeMarkdown(out); !bytes.Equal(again, out) {
			t.Fatalf("not idempotent:\n%q\n%q", out, again)
		}
	})
}
