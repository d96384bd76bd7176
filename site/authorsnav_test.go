package site

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// menuEntries lists the labels of a page's menu entries one level below
// the repository, in order.
func menuEntries(t *testing.T, html string) []string {
	t.Helper()
	menu := between(html, `<nav id="dw-menu"`, "</nav>")
	// The repository's list (the second level), without the lists of
	// open sub-sections.
	var out []string
	depth := 0
	for _, m := range regexp.MustCompile(`<ul>|</ul>|<a href="[^"]*"[^>]*>([^<]*)</a>`).FindAllStringSubmatch(menu, -1) {
		switch m[0] {
		case "<ul>":
			depth++
		case "</ul>":
			depth--
		default:
			if depth == 2 {
				out = append(out, m[1])
			}
		}
	}
	return out
}

// A GitBook space that is the whole repository: its SUMMARY.md, as
// GitBook's editor writes it (escaped underscores, groups under headings),
// orders and names the menu; folders without a page of their own take
// the name of their group; pages it does not list come after.
func TestGitBookSpaceMenuFollowsItsSummary(t *testing.T) {
	_, tree := renderOneRepository(t, "gb", map[string]string{
		"content/gb/README.md":                  "# Lantern handbook\n",
		"content/gb/SUMMARY.md":                 "# Table of contents\n\n* [Start here](README.md)\n\n## What Changed\n\n* [Latest](change\\_log/latest\\_news.md)\n\n## Lighting Basics\n\n* [Wicks](lamp\\_basics/wicks.md)\n* [Oil](lamp\\_basics/oil.md)\n\n## Care\n\n* [Polishing](care/polish.md)\n* [Flames](care/flames.md)\n  * [Colours](care/fire\\_notes/colours.md)\n  * [Heat](care/fire\\_notes/heat.md)\n",
		"content/gb/care/flames.md":             "# Flames\n",
		"content/gb/care/fire_notes/colours.md": "# Colours\n",
		"content/gb/care/fire_notes/heat.md":    "# Heat\n",
		"content/gb/aardvark.md":                "# Aardvark notes\n",
		"content/gb/change_log/latest_news.md":  "# Latest news\n",
		"content/gb/lamp_basics/oil.md":         "# Oil\n",
		"content/gb/lamp_basics/wicks.md":       "# Wicks\n",
		"content/gb/care/polish.md":             "# Polishing\n",
	})
	got := menuEntries(t, tree["docs/gb/index.html"])
	want := []string{"What Changed", "Lighting Basics", "Care", "Aardvark notes"}
	if !slices.Equal(got, want) {
		t.Errorf("menu %q, want %q", got, want)
	}
	lamp := tree["docs/gb/lamp_basics/index.html"]
	if !strings.Contains(lamp, "<h1>Lighting Basics</h1>") {
		t.Errorf("the folder's page is not named by its group:\n%s", between(lamp, "<article>", "</article>"))
	}
	if got := menuEntries(t, lamp); !slices.Equal(got, want) {
		t.Errorf("menu seen from a folder %q, want %q", got, want)
	}
	// A folder whose pages are nested under an entry outside it is named
	// by that entry.
	if fire := tree["docs/gb/care/fire_notes/index.html"]; !strings.Contains(fire, "<h1>Flames</h1>") {
		t.Errorf("the folder's page is not named by the entry its pages are nested under:\n%s", between(fire, "<article>", "</article>"))
	}
}

// Docusaurus' _category_.json names and places a folder (its own page's
// too); sort_rank, nav_order and nav_title front matter order and label
// the pages.
func TestCategoriesAndFrontMatterOrderTheMenu(t *testing.T) {
	res, tree := renderOneRepository(t, "ds", map[string]string{
		"content/ds/index.md":                 "---\ntitle: Kite flying\n---\nHow to fly kites.\n",
		"content/ds/alpha.md":                 "---\ntitle: Alpha\nsort_rank: 3\n---\nA.\n",
		"content/ds/beta.md":                  "---\ntitle: Beta page\nnav_title: Beta\nnav_order: 1\n---\nB.\n",
		"content/ds/zz-wind/_category_.json":  `{"label": "Reading the wind", "position": 2}`,
		"content/ds/zz-wind/gusts.md":         "# Gusts\n",
		"content/ds/aa-repair/_category_.yml": "label: Repairs\nposition: 4\n",
		"content/ds/aa-repair/README.md":      "# Fixing a torn sail\n",
		"content/ds/aa-repair/patch.md":       "# Patches\n",
		"content/ds/broken/_category_.json":   `{"label": `,
		"content/ds/broken/x.md":              "# Broken folder page\n",
	})
	got := menuEntries(t, tree["docs/ds/index.html"])
	want := []string{"Beta", "Reading the wind", "Alpha", "Repairs", "Broken"}
	if !slices.Equal(got, want) {
		t.Errorf("menu %q, want %q", got, want)
	}
	n := 0
	for _, is := range res.Issues {
		if is.Code == IssueToolConfigInvalid && is.Path == "ds/broken/_category_.json" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("issues %v, want one %s naming the unreadable _category_.json", res.Issues, IssueToolConfigInvalid)
	}
}
