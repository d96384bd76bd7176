package htmlsafe

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
	nethtml "golang.org/x/net/html"
)

// unsafeRenderer renders like docweave's site: raw HTML passed through.
var unsafeRenderer = goldmark.New(
	goldmark.WithExtensions(extension.GFM, extension.Footnote, extension.DefinitionList, extension.Typographer),
	goldmark.WithParserOptions(parser.WithAttribute(), parser.WithAutoHeadingID()),
	goldmark.WithRendererOptions(html.WithUnsafe()),
)

func render(t testing.TB, src []byte) string {
	t.Helper()
	var out bytes.Buffer
	if err := unsafeRenderer.Convert(src, &out); err != nil {
		t.Fatalf("render: %v", err)
	}
	return out.String()
}

// activeMarkup returns the first thing in rendered HTML that can run
// script: an element of droppedWithContent, an event handler, a style
// attribute, or an unsafe URL; "" when there is none.
func activeMarkup(rendered string) string {
	z := nethtml.NewTokenizer(strings.NewReader(rendered))
	for {
		tt := z.Next()
		if tt == nethtml.ErrorToken {
			return ""
		}
		if tt != nethtml.StartTagToken && tt != nethtml.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		name := strings.ToLower(tok.Data)
		for _, d := range droppedWithContent {
			if name == d {
				return "<" + name + ">"
			}
		}
		for _, a := range tok.Attr {
			key := strings.ToLower(a.Key)
			image := name == "img" || name == "source" || (name == "video" && key == "poster")
			switch {
			case strings.HasPrefix(key, "on"), key == "style", key == "formaction", key == "action", key == "xlink:href":
				return name + "[" + key + "]"
			case key == "srcset" || key == "href" || key == "src" || key == "poster" || key == "cite":
				if !safeURLAttr(name, key, a.Val) || (key != "srcset" && !SafeURL(a.Val, image)) {
					return name + "[" + key + "=" + a.Val + "]"
				}
			}
		}
	}
}

func TestSanitizeMarkdown(t *testing.T) {
	cases := []struct {
		name, in string
		want     []string // fragments of the rendered page
		gone     []string // fragments that must not be rendered
	}{
		{"script block", "# T\n\n<script>alert(1)</script>\n\ntext\n", []string{"<h1", "<p>text</p>"}, []string{"alert(1)", "<script"}},
		{"inline handler", "see <img src=\"a.png\" onerror=\"alert(1)\"> here\n", []string{`<img src="a.png">`, "here"}, []string{"onerror"}},
		{"javascript href", "<a href=\"javascript:alert(1)\">x</a>\n", []string{"<a>x</a>"}, []string{"javascript"}},
		{"obfuscated scheme", "<a href=\"JaVa&#x09;Script&colon;alert(1)\">x</a>\n", []string{"<a>x</a>"}, []string{"alert"}},
		{"details stays", "<details><summary>More</summary>\n\n**Body**\n\n</details>\n", []string{"<details><summary>More</summary>", "<strong>Body</strong>", "</details>"}, nil},
		{"markdown link", "[click](javascript:alert(1))\n", []string{"[click](javascript:alert(1))"}, []string{"<a"}},
		{"entity link", "[click](javascript&#58;alert(1))\n", nil, []string{"<a"}},
		{"reference link", "[click][r]\n\n[r]: javascript:alert(1)\n", nil, []string{"<a"}},
		{"svg data image", "![x](data:image/svg+xml;base64,PHN2Zz4=)\n", nil, []string{"<img"}},
		{"png data image", "![x](data:image/png;base64,iVBORw0K)\n", []string{`<img src="data:image/png;base64,iVBORw0K"`}, nil},
		{"autolink", "<javascript:alert(1)>\n", nil, []string{"<a"}},
		{"iframe with content", "<div>\n<iframe src=\"https://evil\">fallback</iframe>\nok\n</div>\n", []string{"<div>", "ok"}, []string{"iframe", "fallback"}},
		{"svg onload", "<svg onload=alert(1)><circle/></svg>\n", nil, []string{"svg", "onload"}},
		{"style attribute", "<div style=\"position:fixed;top:0\">x</div>\n", []string{"<div>x</div>"}, []string{"position"}},
		{"target gets noopener", "<a href=\"https://x.example\" target=\"_blank\">x</a>\n", []string{`rel="noopener noreferrer"`}, nil},
		{"form", "<form action=\"https://evil\"><input name=p><button>go</button></form>\n", []string{"go"}, []string{"<form", "<input", "<button"}},
		{"blockquote container", "> <div\n> onclick=\"alert(1)\">quoted</div>\n", []string{"<blockquote>", "quoted"}, []string{"onclick"}},
		{"list container", "- item\n\n  <img src=x\n  onerror=alert(1)>\n", []string{"<li>", `<img src="x">`}, []string{"onerror"}},
		{"comment", "<!-- <script>alert(1)</script> -->\ntext\n", []string{"text"}, []string{"script"}},
		{"unknown element keeps text", "<marquee onstart=alert(1)>hello</marquee>\n", []string{"hello"}, []string{"marquee", "onstart"}},
		{"text that was raw stays text", "<foo>\n[x](javascript:alert(1))\n</foo>\n", nil, []string{"<a", "<foo"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := SanitizeMarkdown([]byte(tc.in))
			got := render(t, out)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("rendered %q lacks %q (source %q)", got, w, out)
				}
			}
			for _, g := range tc.gone {
				if strings.Contains(got, g) {
					t.Errorf("rendered %q still has %q (source %q)", got, g, out)
				}
			}
			if a := activeMarkup(got); a != "" {
				t.Errorf("rendered page has active markup %s: %q", a, got)
			}
			if again := SanitizeMarkdown(out); !bytes.Equal(again, out) {
				t.Errorf("not idempotent:\n%q\n%q", out, again)
			}
		})
	}
}

// Everything but raw HTML and unsafe links is kept byte for byte.
func TestSanitizeMarkdownKeepsEverythingElse(t *testing.T) {
	for _, in := range []string{
		"---\ntitle: \"<script>alert(1)</script>\"\n---\n# Title\n\nText with `<script>` in code.\n",
		"+++\ntitle = \"x\"\n+++\n```html\n<script>alert(1)</script>\n```\n",
		"{\"title\": \"<b>x</b>\"}\n\n    <script>indented code</script>\n",
		"| a | b |\n|---|---|\n| [ok](https://x.example) | ![i](img.png) |\n",
		"## Heading {#custom .cls}\n\n{{< note >}}shortcode{{< /note >}}\n\n[rel](../other.md) <https://x.example> mail@example.com\n",
		"Text with <kbd>Ctrl</kbd> and <br> and <details><summary>s</summary>b</details>\n",
	} {
		if out := SanitizeMarkdown([]byte(in)); string(out) != in {
			t.Errorf("changed:\n%q\n%q", in, out)
		}
	}
}

func TestSafeURL(t *testing.T) {
	for u, want := range map[string]bool{
		"https://x.example/a": true, "http://x": true, "mailto:a@b": true, "/abs": true, "rel/a:b": true, "#frag": true, "?q=a:b": true,
		"javascript:alert(1)": false, " JAVASCRIPT:x": false, "java\nscript:x": false, "vbscript:x": false, "data:text/html,x": false,
		"file:///etc/passwd": false, "data:image/png;base64,x": false,
	} {
		if got := SafeURL(u, false); got != want {
			t.Errorf("SafeURL(%q) = %v, want %v", u, got, want)
		}
	}
	if !SafeURL("data:image/png;base64,x", true) || SafeURL("data:image/svg+xml,x", true) {
		t.Fatal("data image rules")
	}
}
