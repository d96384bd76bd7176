package docusaurus

import (
	"html"
	"regexp"
	"strings"
	"unicode"
)

// jsxTag is one JSX or HTML tag of a tag line, read as data.
type jsxTag struct {
	name                 string
	closing, selfClosing bool
	// attrs are its attributes: a quoted value without its quotes, an
	// expression ({…}) as written inside its braces (a quoted string
	// alone unquoted), "true" for one without a value.
	attrs map[string]string
	raw   string
	// text is a <summary>'s text, its tags removed.
	text string
}

// component reports whether the tag is a JSX component's (capitalised).
func (t jsxTag) component() bool {
	return t.name != "" && unicode.IsUpper(rune(t.name[0]))
}

// isDetails reports whether the tag is a <details> or <summary>.
func (t jsxTag) isDetails() bool { return t.name == "details" || t.name == "summary" }

// htmlTags matches a tag, to take a summary's text.
var htmlTags = regexp.MustCompile(`<[^>]*>`)

// quotedExpr matches an expression that is a quoted string alone.
var quotedExpr = regexp.MustCompile(`^\{\s*(?:"([^"]*)"|'([^']*)'|` + "`([^`]*)`" + `)\s*\}$`)

// splitTags reads s, a line without its indentation, as a run of tags (a
// <summary> with its text and end tag counting as one). It returns false
// when s holds anything else.
func splitTags(s string) ([]jsxTag, bool) {
	var tags []jsxTag
	for i := 0; i < len(s); {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		t, end, ok := readTag(s, i)
		if !ok {
			return nil, false
		}
		i = end
		if t.name == "summary" && !t.closing {
			j := strings.Index(s[i:], "</summary>")
			if j < 0 {
				return nil, false
			}
			t.text = strings.TrimSpace(html.UnescapeString(htmlTags.ReplaceAllString(s[i:i+j], "")))
			i += j + len("</summary>")
		}
		tags = append(tags, t)
	}
	return tags, len(tags) > 0
}

// readTag reads the tag starting at s[i] ('<'): its name and attributes,
// quoted values and brace expressions (nested braces and quotes inside
// them included). It returns where the tag ends.
func readTag(s string, i int) (jsxTag, int, bool) {
	start := i
	if i >= len(s) || s[i] != '<' {
		return jsxTag{}, 0, false
	}
	i++
	t := jsxTag{attrs: map[string]string{}}
	if i < len(s) && s[i] == '/' {
		t.closing = true
		i++
	}
	n := i
	for i < len(s) && (isNameByte(s[i]) || (i > n && (s[i] == '.' || s[i] == '-'))) {
		i++
	}
	if i == n {
		return jsxTag{}, 0, false
	}
	t.name = s[n:i]
	for i < len(s) {
		switch c := s[i]; {
		case c == ' ' || c == '\t':
			i++
		case c == '>':
			t.raw = s[start : i+1]
			return t, i + 1, true
		case c == '/' && i+1 < len(s) && s[i+1] == '>':
			t.selfClosing = true
			t.raw = s[start : i+2]
			return t, i + 2, true
		case isNameByte(c):
			a := i
			for i < len(s) && (isNameByte(s[i]) || s[i] == '-' || s[i] == ':') {
				i++
			}
			key, value := s[a:i], "true"
			if i < len(s) && s[i] == '=' {
				v, end, ok := readValue(s, i+1)
				if !ok {
					return jsxTag{}, 0, false
				}
				value, i = v, end
			}
			t.attrs[key] = value
		default:
			return jsxTag{}, 0, false
		}
	}
	return jsxTag{}, 0, false
}

// readValue reads an attribute's value at s[i]: a quoted string or a
// brace expression.
func readValue(s string, i int) (string, int, bool) {
	if i >= len(s) {
		return "", 0, false
	}
	switch s[i] {
	case '"', '\'':
		end := strings.IndexByte(s[i+1:], s[i])
		if end < 0 {
			return "", 0, false
		}
		return html.UnescapeString(s[i+1 : i+1+end]), i + end + 2, true
	case '{':
		depth, quote := 0, byte(0)
		for j := i; j < len(s); j++ {
			c := s[j]
			switch {
			case quote != 0:
				if c == '\\' {
					j++
				} else if c == quote {
					quote = 0
				}
			case c == '"' || c == '\'' || c == '`':
				quote = c
			case c == '{':
				depth++
			case c == '}':
				depth--
				if depth == 0 {
					expr := s[i : j+1]
					if m := quotedExpr.FindStringSubmatch(expr); m != nil {
						return m[1] + m[2] + m[3], j + 1, true
					}
					return expr[1 : len(expr)-1], j + 1, true
				}
			}
		}
	}
	return "", 0, false
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
