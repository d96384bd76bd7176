package htmlsafe

import (
	"bytes"
	"html"
	"io"
	"slices"
	"strings"

	nethtml "golang.org/x/net/html"
)

// allowedElements are the elements an untrusted page may use, with the
// attributes each may carry beyond globalAttrs.
var allowedElements = map[string][]string{
	"a": {"href", "name", "target", "rel", "hreflang"}, "abbr": nil, "b": nil, "bdi": nil, "bdo": nil,
	"blockquote": {"cite"}, "br": nil, "caption": nil, "center": nil, "cite": nil, "code": nil,
	"col": {"span", "width"}, "colgroup": {"span", "width"}, "dd": nil, "del": {"cite", "datetime"},
	"details": {"open"}, "dfn": nil, "div": {"align"}, "dl": nil, "dt": nil, "em": nil,
	"figcaption": nil, "figure": nil, "h1": {"align"}, "h2": {"align"}, "h3": {"align"}, "h4": {"align"},
	"h5": {"align"}, "h6": {"align"}, "hr": nil, "i": nil,
	"img": {"src", "srcset", "alt", "width", "height", "align", "loading", "decoding", "sizes"},
	"ins": {"cite", "datetime"}, "kbd": nil, "li": {"value"}, "mark": nil, "ol": {"start", "type", "reversed"},
	"p": {"align"}, "picture": nil, "pre": nil, "q": {"cite"}, "rp": nil, "rt": nil, "ruby": nil, "s": nil,
	"samp": nil, "small": nil, "source": {"src", "srcset", "type", "media", "sizes", "width", "height"},
	"span": nil, "strike": nil, "strong": nil, "sub": nil, "summary": nil, "sup": nil,
	"table": {"align", "width", "border", "cellpadding", "cellspacing"}, "tbody": {"align", "valign"},
	"td": {"colspan", "rowspan", "align", "valign", "width", "headers"}, "tfoot": {"align", "valign"},
	"th": {"colspan", "rowspan", "align", "valign", "width", "scope", "headers"}, "thead": {"align", "valign"},
	"time": {"datetime"}, "tr": {"align", "valign"}, "tt": nil, "u": nil, "ul": nil, "var": nil, "wbr": nil,
	"video": {"src", "poster", "controls", "width", "height", "loop", "muted", "playsinline", "preload"},
	"audio": {"src", "controls", "loop", "muted", "preload"}, "track": {"src", "kind", "srclang", "label", "default"},
}

// globalAttrs may be on any allowed element. style is not among them: it
// can cover the page with a look-alike (position: fixed) even without
// script.
var globalAttrs = []string{"id", "class", "title", "lang", "dir", "role", "align"}

// droppedWithContent are removed together with everything up to their end
// tag: their content is script, style or another document.
var droppedWithContent = []string{
	"script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "noscript", "noembed",
	"noframes", "template", "svg", "math", "textarea", "select", "title", "xmp", "plaintext", "head",
}

// urlAttrs hold URLs (srcset holds a list of them).
var urlAttrs = []string{"href", "src", "cite", "poster", "srcset"}

// sanitizeHTML rewrites an HTML fragment through the allowlist: allowed
// elements keep their allowed attributes (URLs checked), other elements
// lose their tags but keep their text, the elements of droppedWithContent
// go with their content, comments and declarations go. Text is written
// escaped, so nothing the fragment held can become markup again.
func sanitizeHTML(fragment []byte) []byte {
	var out bytes.Buffer
	z := nethtml.NewTokenizer(bytes.NewReader(fragment))
	// dropping is the element whose content is being dropped, and depth
	// counts its nesting.
	dropping, depth := "", 0
	for {
		tt := z.Next()
		if tt == nethtml.ErrorToken {
			if z.Err() == io.EOF {
				return out.Bytes()
			}
			return out.Bytes() // a tokenizer error ends the fragment; what was read is safe
		}
		tok := z.Token()
		name := strings.ToLower(tok.Data)
		if dropping != "" {
			switch {
			case tt == nethtml.StartTagToken && name == dropping:
				depth++
			case tt == nethtml.EndTagToken && name == dropping:
				if depth--; depth == 0 {
					dropping = ""
				}
			}
			continue
		}
		switch tt {
		case nethtml.TextToken:
			out.WriteString(escapeText(tok.Data))
		case nethtml.StartTagToken, nethtml.SelfClosingTagToken:
			if slices.Contains(droppedWithContent, name) {
				if tt == nethtml.StartTagToken {
					dropping, depth = name, 1
				}
				continue
			}
			if attrs, ok := allowedElements[name]; ok {
				writeStartTag(&out, name, tok.Attr, attrs, tt == nethtml.SelfClosingTagToken)
			}
		case nethtml.EndTagToken:
			if _, ok := allowedElements[name]; ok {
				out.WriteString("</" + name + ">")
			}
		}
	}
}

// escapeText escapes text for HTML and keeps Markdown from reading it as
// markup again when it leaves an HTML block (a removed tag may end one).
func escapeText(s string) string {
	s = html.EscapeString(s)
	return markdownSyntax.Replace(s)
}

// markdownSyntax escapes the characters that start links, images,
// autolinks and inline HTML in Markdown, as HTML entities, which read the
// same in HTML and as text in Markdown.
var markdownSyntax = strings.NewReplacer("[", "&#91;", "]", "&#93;", "`", "&#96;", "\\", "&#92;")

// writeStartTag writes a start tag with the allowed attributes only.
func writeStartTag(out *bytes.Buffer, name string, attrs []nethtml.Attribute, allowed []string, selfClosing bool) {
	out.WriteString("<" + name)
	hasTarget := false
	for _, a := range attrs {
		key := strings.ToLower(a.Key)
		if a.Namespace != "" || !(slices.Contains(allowed, key) || slices.Contains(globalAttrs, key) || strings.HasPrefix(key, "aria-")) {
			continue
		}
		if key == "rel" {
			continue // set below when target is
		}
		if slices.Contains(urlAttrs, key) && !safeURLAttr(name, key, a.Val) {
			continue
		}
		if key == "target" {
			hasTarget = true
		}
		out.WriteString(" " + key + `="` + html.EscapeString(a.Val) + `"`)
	}
	if name == "a" && hasTarget {
		out.WriteString(` rel="noopener noreferrer"`)
	}
	if selfClosing {
		out.WriteString(" /")
	}
	out.WriteString(">")
}

// safeURLAttr checks the URLs of an attribute; srcset lists several.
func safeURLAttr(element, key, val string) bool {
	image := element == "img" || element == "source" || (element == "video" && key == "poster")
	if key != "srcset" {
		return SafeURL(val, image)
	}
	for _, candidate := range strings.Split(val, ",") {
		fields := strings.Fields(candidate)
		if len(fields) > 0 && !SafeURL(fields[0], image) {
			return false
		}
	}
	return true
}

// SafeURL reports whether a URL may appear in a link or a resource of an
// untrusted page: a relative URL, a fragment, or the schemes http, https,
// mailto, tel — and for images also data:image/png, gif, jpeg or webp. The
// scheme is read the way browsers read it: ASCII whitespace and control
// characters stripped, case ignored, entity references decoded (once
// more, for a Markdown destination the renderer decodes later) and
// Markdown backslash escapes dropped.
func SafeURL(u string, image bool) bool {
	var b strings.Builder
	for _, r := range html.UnescapeString(u) {
		if r <= ' ' || r == 0x7f || r == '\\' {
			continue
		}
		b.WriteRune(r)
	}
	s := strings.ToLower(b.String())
	colon := strings.IndexByte(s, ':')
	if colon < 0 {
		return true
	}
	if i := strings.IndexAny(s, "/?#"); i >= 0 && i < colon {
		return true // the colon is in the path, query or fragment: relative
	}
	switch scheme := s[:colon]; scheme {
	case "http", "https", "mailto", "tel":
		return true
	case "data":
		if !image {
			return false
		}
		for _, t := range []string{"data:image/png", "data:image/gif", "data:image/jpeg", "data:image/webp"} {
			if strings.HasPrefix(s, t+";") || strings.HasPrefix(s, t+",") {
				return true
			}
		}
	}
	return false
}
