package linkcheck

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"
)

// The keys this package adds to a unit's facts (the theme's
// home.unitfacts.json), beside the theme's own.
const (
	// anchorsKey maps each page's URL to the ids its HTML has.
	anchorsKey = "anchors"
	// linksKey lists the unit's links that lead into another unit.
	linksKey = "links"
	// xrefIDsKey maps the stable ids the unit's pages declare to their
	// URLs (xref.go).
	xrefIDsKey = "xrefIds"
)

// OutLink is a link of a unit's page that leads into another unit: what
// the assembly checks against that unit's facts.
type OutLink struct {
	// File is the linking page's file, a slash path relative to content/.
	File string `json:"file"`
	Line int    `json:"line"`
	// Dest is the destination as written.
	Dest string `json:"dest"`
	// URL is the site path of the page it names (base path included),
	// without fragment.
	URL      string `json:"url"`
	Fragment string `json:"fragment,omitempty"`
}

// factPage is what this package reads of a page in a unit's facts.
type factPage struct {
	Path    string   `json:"path"`
	URL     string   `json:"url"`
	File    string   `json:"file"`
	Aliases []string `json:"aliases"`
}

// unitFacts is what this package reads of a unit's facts.
type unitFacts struct {
	Unit    string              `json:"unit"`
	Pages   []factPage          `json:"pages"`
	Anchors map[string][]string `json:"anchors"`
	Links   []OutLink           `json:"links"`
	XrefIDs map[string]string   `json:"xrefIds"`
}

// readFacts parses a unit's facts.
func readFacts(data []byte) (unitFacts, error) {
	var f unitFacts
	if err := json.Unmarshal(data, &f); err != nil {
		return f, fmt.Errorf("read facts of unit: %w", err)
	}
	return f, nil
}

// withAnchors returns facts with the anchors, out-links and declared ids
// added, every other key kept as it was.
func withAnchors(facts []byte, anchors map[string][]string, out []OutLink, ids map[string]string) ([]byte, error) {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(facts, &all); err != nil {
		return nil, fmt.Errorf("read facts of unit: %w", err)
	}
	var err error
	if all[anchorsKey], err = json.Marshal(anchors); err != nil {
		return nil, err
	}
	if out == nil {
		out = []OutLink{}
	}
	if all[linksKey], err = json.Marshal(out); err != nil {
		return nil, err
	}
	if len(ids) > 0 {
		if all[xrefIDsKey], err = json.Marshal(ids); err != nil {
			return nil, err
		}
	}
	return json.Marshal(all)
}

// urlKey is the form page URLs are compared in: without query, fragment,
// index.html or trailing slash.
func urlKey(u string) string {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	u = strings.TrimSuffix(u, "index.html")
	if u != "/" {
		u = strings.TrimSuffix(u, "/")
	}
	return u
}

// pageLike reports whether the site path u may name a page rather than a
// file (an image, a download): its last segment has no extension, or
// .html.
func pageLike(u string) bool {
	ext := path.Ext(urlKey(u))
	return ext == "" || ext == ".html" || ext == ".htm"
}
