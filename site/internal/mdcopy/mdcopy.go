// Package mdcopy turns a rendered page into Markdown, for the tools people
// read documentation through (coding assistants, chat models, crawlers):
// what the reader of the HTML saw, not the source as written. Front
// matter, the authors' dialects and shortcodes are gone because the page
// is taken after Hugo rendered it: a callout is a quote opening with its
// label in bold, a tab group is a run of headed sections, a details block
// is its summary in bold and its body, icons are dropped, and every link
// and image is a URL of the site.
package mdcopy

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Converter turns pages of one site into Markdown. It is not safe for
// concurrent use; make one per goroutine.
type Converter struct {
	conv *htmltomarkdown.Converter
	// origin is the site's scheme and host ("https://docs.example.com")
	// when its base URL is absolute: a root-relative link becomes absolute,
	// since a Markdown copy is read away from the site.
	origin string
}

// New returns a Converter for a site whose base URL is baseURL (absolute,
// a path, or "").
func New(baseURL string) *Converter {
	c := &Converter{conv: htmltomarkdown.NewConverter(htmltomarkdown.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(table.WithCellPaddingBehavior(table.CellPaddingBehaviorMinimal)),
		strikethrough.NewStrikethroughPlugin(),
	))}
	if i := strings.Index(baseURL, "://"); i > 0 {
		host, _, _ := strings.Cut(baseURL[i+3:], "/")
		c.origin = baseURL[:i+3] + host
	}
	return c
}

// Convert returns the Markdown of a rendered page of the theme: its
// <article> (title and body), or nil when the page has none (a redirect
// page, the search index). pageURL is the page's URL on the site
// ("/docs/alpha/guide/"), against which its relative links resolve.
func (c *Converter) Convert(page []byte, pageURL string) ([]byte, error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return nil, fmt.Errorf("read rendered page: %w", err)
	}
	article := find(doc, func(n *html.Node) bool { return n.DataAtom == atom.Article })
	if article == nil {
		return nil, nil
	}
	article.Parent.RemoveChild(article)
	neutralise(article, 1)
	base, err := url.Parse(c.origin + pageURL)
	if err != nil {
		return nil, fmt.Errorf("markdown copy of %s: %w", pageURL, err)
	}
	resolveURLs(article, base)
	out, err := c.conv.ConvertNode(article)
	if err != nil {
		return nil, fmt.Errorf("convert rendered page to Markdown: %w", err)
	}
	out = bytes.TrimSpace(out)
	return append(out, '\n'), nil
}

// neutralise rewrites the theme's components below n as plain HTML that
// Markdown can hold, and removes what only a browser needs. level is the
// level of the nearest heading before n, which a tab's heading goes
// below; the level of the last heading met is returned.
func neutralise(n *html.Node, level int) int {
	for child := n.FirstChild; child != nil; {
		next := child.NextSibling
		switch {
		case child.Type == html.CommentNode:
			n.RemoveChild(child)
		case child.Type != html.ElementNode:
		case dropped(child):
			n.RemoveChild(child)
		case isHeading(child):
			level = int(child.Data[1] - '0')
			neutralise(child, level)
		case hasClass(child, "callout"):
			toQuote(child)
			neutralise(child, level)
		case hasClass(child, "tab-heading"):
			child.DataAtom, child.Data = headingBelow(level)
			child.Attr = nil
		case child.DataAtom == atom.Details:
			child.DataAtom, child.Data = atom.Div, "div"
			level = neutralise(child, level)
		case child.DataAtom == atom.Summary:
			child.DataAtom, child.Data = atom.P, "p"
			boldChildren(child)
		default:
			level = neutralise(child, level)
		}
		child = next
	}
	return level
}

// resolveURLs makes every link and image source below n a URL that
// works away from the page: absolute on a site with an absolute base URL,
// else from the site's root.
func resolveURLs(n *html.Node, base *url.URL) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		for i, a := range c.Attr {
			if a.Key != "href" && a.Key != "src" {
				continue
			}
			u, err := url.Parse(strings.TrimSpace(a.Val))
			if err != nil || u.Scheme != "" {
				continue
			}
			r := base.ResolveReference(u)
			if base.Host == "" {
				r.Scheme, r.Host = "", ""
			}
			c.Attr[i].Val = r.String()
		}
		resolveURLs(c, base)
	}
}

// dropped is what a Markdown copy leaves out: the inline table of
// contents and the page's terms (navigation the copy does not need), the
// tab buttons (each panel carries its label), icons, scripts and text
// only a screen reader hears beside something visible.
func dropped(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Svg, atom.Script, atom.Style, atom.Button, atom.Template, atom.Noscript:
		return true
	case atom.Nav:
		return true
	}
	return hasClass(n, "terms") || hasClass(n, "tab-list") || hasClass(n, "visually-hidden") ||
		hasClass(n, "twemoji") || hasClass(n, "icon") || hasClass(n, "heading-alias")
}

// isHeading reports whether n is h1 … h6.
func isHeading(n *html.Node) bool {
	return len(n.Data) == 2 && n.Data[0] == 'h' && n.Data[1] >= '1' && n.Data[1] <= '6'
}

// headingBelow is the heading one level below level (h6 at most).
func headingBelow(level int) (atom.Atom, string) {
	hs := []atom.Atom{atom.H2, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.H6}
	a := hs[min(max(level, 1), 6)]
	return a, a.String()
}

// toQuote makes a callout a blockquote whose first paragraph is its label
// in bold: "> **Warning**".
func toQuote(n *html.Node) {
	n.DataAtom, n.Data, n.Attr = atom.Blockquote, "blockquote", nil
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && hasClass(c, "callout-title") {
			c.Attr = nil
			boldChildren(c)
			return
		}
	}
}

// boldChildren wraps n's children in <strong>.
func boldChildren(n *html.Node) {
	strong := &html.Node{Type: html.ElementNode, DataAtom: atom.Strong, Data: "strong"}
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		n.RemoveChild(c)
		strong.AppendChild(c)
		c = next
	}
	n.AppendChild(strong)
}

// find returns the first node below n (depth first) that ok accepts.
func find(n *html.Node, ok func(*html.Node) bool) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && ok(c) {
			return c
		}
		if f := find(c, ok); f != nil {
			return f
		}
	}
	return nil
}

// attr is n's attribute key, or "".
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// hasClass reports whether n's class list holds class.
func hasClass(n *html.Node, class string) bool {
	for _, c := range strings.Fields(attr(n, "class")) {
		if c == class {
			return true
		}
	}
	return false
}
