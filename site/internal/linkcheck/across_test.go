package linkcheck

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// factsOf writes a unit's facts: pages by URL with their ids, and links.
func factsOf(t *testing.T, unit string, pages map[string][]string, aliases map[string][]string, links ...OutLink) []byte {
	t.Helper()
	f := map[string]any{"unit": unit, "anchors": pages, "links": links}
	var list []map[string]any
	for u := range pages {
		list = append(list, map[string]any{"url": u, "aliases": aliases[u]})
	}
	f["pages"] = list
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// A link into another unit is checked against that unit's facts: a URL
// that names none of its pages (nor their aliases) is broken, and so is a
// fragment the page lacks; a link whose target the last build's facts of
// that unit had is marked as broken by this build's change to it.
func TestLinksIntoOtherUnitsAreCheckedAgainstTheirFacts(t *testing.T) {
	links := []OutLink{
		{File: "pantry/shelf.md", Line: 3, Dest: "a", URL: "/docs/kitchen/knives", Fragment: "sharpening"},
		{File: "pantry/shelf.md", Line: 4, Dest: "b", URL: "/docs/kitchen/knives", Fragment: "honing"},
		{File: "pantry/shelf.md", Line: 5, Dest: "c", URL: "/docs/kitchen/ovens"},
		{File: "pantry/shelf.md", Line: 6, Dest: "d", URL: "/docs/kitchen/old-knives", Fragment: "sharpening"},
		{File: "pantry/shelf.md", Line: 7, Dest: "e", URL: "/docs/kitchen/pans", Fragment: "seasoning"},
		{File: "pantry/shelf.md", Line: 8, Dest: "f", URL: "/docs/cellar/v2/wine"},
	}
	units := []Facts{
		{Unit: "pantry", Facts: factsOf(t, "pantry", map[string][]string{"/docs/pantry/shelf/": {"top-shelf"}}, nil, links...)},
		{Unit: "kitchen", Facts: factsOf(t, "kitchen", map[string][]string{"/docs/kitchen/knives/": {"sharpening"}},
			map[string][]string{"/docs/kitchen/knives/": {"/docs/kitchen/old-knives/"}})},
		{Unit: "cellar/v2", Facts: factsOf(t, "cellar/v2", map[string][]string{"/docs/cellar/v2/wine/": nil}, nil)},
	}
	last := factsOf(t, "kitchen", map[string][]string{"/docs/kitchen/knives/": {"sharpening", "honing"}, "/docs/kitchen/ovens/": nil}, nil)
	broken, counts, err := Across(units, map[string][]byte{"kitchen": last}, "/")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range broken {
		got = append(got, fmt.Sprintf("%s:%d %s nopage=%v removed=%v", b.File, b.Line, b.Target, b.NoPage, b.Removed))
	}
	want := []string{
		"pantry/shelf.md:4 kitchen nopage=false removed=true",
		"pantry/shelf.md:5 kitchen nopage=true removed=true",
		"pantry/shelf.md:7 kitchen nopage=true removed=false",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("broken:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if counts.Links != 6 || counts.Fragments != 3 {
		t.Errorf("counts = %+v, want 6 links, 3 fragments", counts)
	}
	// Facts written before they held ids: the page is checked, the
	// fragment is not.
	units[1].Facts = []byte(`{"unit":"kitchen","pages":[{"url":"/docs/kitchen/knives/"}]}`)
	broken, _, err = Across(units, nil, "/")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range broken {
		if !b.NoPage {
			t.Errorf("a fragment was checked against facts without ids: %+v", b)
		}
	}
}
