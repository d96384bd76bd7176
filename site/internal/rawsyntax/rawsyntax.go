// Package rawsyntax finds, in a rendered page, the source syntax of an
// authoring tool that a reader meets as text: a Hugo shortcode, a GitBook
// (Liquid) tag, a GitHub alert marker, a tab or admonition marker of
// MkDocs or Docusaurus, an icon code, an MDX import or component. Each is
// a construct a dialect did not convert; counted per repository in the
// build report, they measure how far a site is from what its authors saw.
// Only text is read: code, preformatted blocks, scripts and styles hold
// syntax on purpose.
package rawsyntax

import (
	"io"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Finding is one kind of raw syntax on a page, with its first example.
type Finding struct {
	Kind    string // one of the kinds below
	Example string // the text around the first match, at most about 60 characters
}

// The kinds of raw syntax, in the order Scan reports them.
const (
	KindShortcode  = "shortcode"  // {{< name >}}, {{% name %}}
	KindLiquid     = "liquid"     // {% hint %}, {% endtabs %}
	KindAlert      = "alert"      // [!NOTE]
	KindTab        = "tab"        // === "Title"
	KindAdmonition = "admonition" // !!! note, ??? tip, :::note
	KindIcon       = "icon"       // :material-check:, :octicons-x-16:
	KindMDX        = "mdx"        // import X from '…'; <Tabs>
	KindSnippet    = "snippet"    // --8<-- "file"
)

// patterns finds each kind in a text (typographer's curly quotes and
// dashes included: Hugo turns "--" into "–" and '"' into '“').
var patterns = []struct {
	kind string
	re   *regexp.Regexp
}{
	{KindShortcode, regexp.MustCompile(`\{\{[<%]-?\s*/?[\w.-]+`)},
	{KindLiquid, regexp.MustCompile(`(?:^|[^{])\{%-?\s*/?[a-z][\w-]*`)},
	{KindAlert, regexp.MustCompile(`(?i)\[!(?:note|tip|important|warning|caution)\]`)},
	{KindTab, regexp.MustCompile(`(?m)(?:^|\s)===\+?\s+["“”]`)},
	{KindAdmonition, regexp.MustCompile(`(?m)(?:^|\s)(?:!!!|\?\?\?\+?)\s+[a-z]|(?:^|\s):{3,}\s*[a-z]+\b`)},
	{KindIcon, regexp.MustCompile(`:(?:material|octicons|fontawesome|simple)-[a-z0-9-]+:`)},
	{KindMDX, regexp.MustCompile(`(?m)^\s*import\s+(?:\w+|\{[^}]*\})(?:\s*,\s*\{[^}]*\})?\s+from\s+['"‘’“”]|</?(?:Tabs|TabItem)\b`)},
	{KindSnippet, regexp.MustCompile(`(?:--|–|—)8<(?:--|–|—)`)},
}

// skipped are the elements whose text is not read: code and what is
// never shown as text.
var skipped = map[atom.Atom]bool{
	atom.Pre: true, atom.Code: true, atom.Kbd: true, atom.Samp: true,
	atom.Script: true, atom.Style: true, atom.Textarea: true, atom.Svg: true, atom.Template: true,
}

// blocks end a run of text: a match never spans two paragraphs.
var blocks = map[atom.Atom]bool{
	atom.P: true, atom.Li: true, atom.Div: true, atom.Td: true, atom.Th: true, atom.Blockquote: true,
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Br: true, atom.Section: true, atom.Article: true, atom.Dt: true, atom.Dd: true,
	atom.Summary: true, atom.Details: true, atom.Figcaption: true, atom.Main: true,
}

// maxRun bounds the text kept of one block: the page is read as a stream,
// and a longer block is checked in pieces of this size.
const maxRun = 64 << 10

// Scan reads a page's HTML and returns each kind of raw syntax its text
// shows, once, in the order of the kinds. Only the page's <main> element
// is read when it has one: the theme's frame (menu, header) is not the
// page's text, and a menu label would count on every page.
func Scan(r io.Reader) ([]Finding, error) {
	z := html.NewTokenizer(r)
	inMain, outside := &finder{}, &finder{}
	sawMain, mainDepth := false, 0
	depth := 0 // inside skipped elements
	for {
		tt := z.Next()
		f := outside
		if mainDepth > 0 {
			f = inMain
		}
		switch tt {
		case html.ErrorToken:
			if err := z.Err(); err != io.EOF {
				return nil, err
			}
			if sawMain {
				return inMain.findings(), nil
			}
			return outside.findings(), nil
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			switch {
			case a == atom.Main && tt == html.StartTagToken:
				sawMain = true
				mainDepth++
				f.check()
			case skipped[a] && tt == html.StartTagToken:
				depth++
			case blocks[a]:
				f.check()
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			switch {
			case a == atom.Main && mainDepth > 0:
				f.check()
				mainDepth--
			case skipped[a] && depth > 0:
				depth--
			case blocks[a]:
				f.check()
			}
		case html.TextToken:
			if depth == 0 {
				f.add(z.Text())
			}
		}
	}
}

// finder gathers the text of a page's blocks and finds raw syntax in
// each: the first example of each kind.
type finder struct {
	run   strings.Builder
	found map[string]string
}

// add adds text to the current block.
func (f *finder) add(text []byte) {
	f.run.Write(text)
	if f.run.Len() > maxRun {
		f.check()
	}
}

// check looks for each kind not yet found in the current block, which
// then ends.
func (f *finder) check() {
	if f.run.Len() == 0 {
		return
	}
	text := f.run.String()
	f.run.Reset()
	for _, p := range patterns {
		if _, ok := f.found[p.kind]; ok {
			continue
		}
		if loc := p.re.FindStringIndex(text); loc != nil {
			if f.found == nil {
				f.found = map[string]string{}
			}
			f.found[p.kind] = around(text, loc[0], loc[1])
		}
	}
}

// findings are the kinds found, in the order of the kinds.
func (f *finder) findings() []Finding {
	f.check()
	var out []Finding
	for _, p := range patterns {
		if ex, ok := f.found[p.kind]; ok {
			out = append(out, Finding{Kind: p.kind, Example: ex})
		}
	}
	return out
}

// around is the text of the match text[start:stop] with a little on each
// side, on one line.
func around(text string, start, stop int) string {
	from, to := start, stop
	for n := 0; from > 0 && n < 15; n++ {
		_, size := utf8.DecodeLastRuneInString(text[:from])
		from -= size
	}
	for n := 0; to < len(text) && n < 40; n++ {
		_, size := utf8.DecodeRuneInString(text[to:])
		to += size
	}
	return strings.Join(strings.Fields(text[from:to]), " ")
}
