package linkcheck

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// RawLink is one link as written in a page's HTML, before resolution.
type RawLink struct {
	// Element names where the link sits, such as "a[href]" or "img[srcset]".
	Element string `json:"e"`
	// URL is the attribute value (one candidate of a srcset).
	URL string `json:"u"`
	// Edit marks an edit link: rel="edit", or a class edit-link/edit-page.
	Edit bool `json:"edit,omitempty"`
}

// PageLinks is what verification needs from one HTML page: its links, the
// ids fragments may point at, and its <base href>. It is what the cache
// keeps per page content, so an unchanged page is not parsed again.
type PageLinks struct {
	Links []RawLink `json:"links"`
	IDs   []string  `json:"ids"`
	Base  string    `json:"base,omitempty"`
	// Refresh is where a redirect page (<meta http-equiv="refresh">, as
	// Hugo's aliases and the pages of links by id are) sends its reader:
	// a fragment of it is looked up there.
	Refresh string `json:"refresh,omitempty"`
	// Layout is pageLayout when the value was made; a cached value of
	// another layout is read again.
	Layout int `json:"layout,omitempty"`
}

// pageLayout is the version of what Extract records (2: Refresh).
const pageLayout = 2

// linkAttributes lists, per element, the attributes that hold a URL to check.
var linkAttributes = map[atom.Atom][]string{
	atom.A:      {"href"},
	atom.Area:   {"href"},
	atom.Link:   {"href"},
	atom.Img:    {"src", "srcset"},
	atom.Source: {"src", "srcset"},
	atom.Script: {"src"},
	atom.Iframe: {"src"},
	atom.Video:  {"src", "poster"},
	atom.Audio:  {"src"},
	atom.Track:  {"src"},
	atom.Embed:  {"src"},
	atom.Object: {"data"},
}

// nonFetchedRels are <link rel> values whose href is a hint, not a
// resource: a preconnect origin is not a page that must exist.
var nonFetchedRels = map[string]bool{"preconnect": true, "dns-prefetch": true}

// Extract reads one HTML page. It tokenizes rather than building a tree,
// which is several times faster on large sites, and it never fails on bad
// HTML — browsers do not either.
func Extract(page []byte) (PageLinks, error) {
	z := html.NewTokenizer(bytes.NewReader(page))
	out := PageLinks{Layout: pageLayout}
	seenID := map[string]bool{}
	addID := func(id string) {
		if id != "" && !seenID[id] {
			seenID[id] = true
			out.IDs = append(out.IDs, id)
		}
	}
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if err := z.Err(); err != nil && !errors.Is(err, io.EOF) {
				return out, fmt.Errorf("extract links: %w", err)
			}
			return out, nil
		case html.StartTagToken, html.SelfClosingTagToken:
		default:
			continue
		}
		name, hasAttr := z.TagName()
		if !hasAttr {
			continue
		}
		a := atom.Lookup(name)
		attrs := map[string]string{}
		for {
			k, v, more := z.TagAttr()
			key := string(k)
			if _, dup := attrs[key]; !dup {
				attrs[key] = string(v)
			}
			if !more {
				break
			}
		}
		addID(attrs["id"])
		if a == atom.A {
			addID(attrs["name"])
		}
		if a == atom.Meta && strings.EqualFold(attrs["http-equiv"], "refresh") && out.Refresh == "" {
			out.Refresh = refreshURL(attrs["content"])
			continue
		}
		if a == atom.Base && out.Base == "" {
			out.Base = strings.TrimSpace(attrs["href"])
			continue
		}
		wanted, ok := linkAttributes[a]
		if !ok {
			continue
		}
		rels := strings.Fields(strings.ToLower(attrs["rel"]))
		if a == atom.Link && anyOf(rels, nonFetchedRels) {
			continue
		}
		edit := contains(rels, "edit") || hasClass(attrs["class"], "edit-link", "edit-page")
		for _, attr := range wanted {
			v, present := attrs[attr]
			if !present {
				continue
			}
			element := string(name) + "[" + attr + "]"
			if attr == "srcset" {
				for _, u := range srcsetURLs(v) {
					out.Links = append(out.Links, RawLink{Element: element, URL: u, Edit: edit})
				}
				continue
			}
			out.Links = append(out.Links, RawLink{Element: element, URL: strings.TrimSpace(v), Edit: edit})
		}
	}
}

// refreshURL is the URL of a refresh's content ("0; url=/docs/x/"), ""
// when it names none.
func refreshURL(content string) string {
	_, rest, ok := strings.Cut(content, ";")
	if !ok {
		return ""
	}
	rest = strings.TrimSpace(rest)
	if len(rest) < 4 || !strings.EqualFold(rest[:4], "url=") {
		return ""
	}
	return strings.Trim(strings.TrimSpace(rest[4:]), `"'`)
}

// srcsetURLs returns the URLs of a srcset attribute ("a.png 1x, b.png 2x").
func srcsetURLs(v string) []string {
	var out []string
	for _, candidate := range strings.Split(v, ",") {
		fields := strings.Fields(candidate)
		if len(fields) > 0 {
			out = append(out, fields[0])
		}
	}
	return out
}

func anyOf(values []string, set map[string]bool) bool {
	for _, v := range values {
		if set[v] {
			return true
		}
	}
	return false
}

func contains(values []string, want string) bool {
	for _, v := range values {
		if v == want {
			return true
		}
	}
	return false
}

func hasClass(class string, names ...string) bool {
	for _, c := range strings.Fields(class) {
		for _, n := range names {
			if strings.EqualFold(c, n) {
				return true
			}
		}
	}
	return false
}
