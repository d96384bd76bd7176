package site

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// fragmentFixture is a unit whose links name places on its pages: a
// heading's id, a heading with an id of its own, an anchor in raw HTML, a
// place on the same page, and a few places that are not there.
func fragmentFixture() map[string]string {
	return map[string]string{
		"content/kb/README.md": strings.Join([]string{
			"# Knowledge base",
			"",
			"Read [the steps](tasks/brew.md#grind-the-beans) first,",
			"then [the water](tasks/brew.md#water-temperature), which the page calls otherwise.",
			"The [kettle note](tasks/brew.md#kettle) is an anchor in HTML,",
			"and [the scale](tasks/brew.md#scale-setup) has an id of its own.",
			"[Nothing here](tasks/brew.md#milk-foam) names no place.",
			"Jump [down](#closing-words) or [to a place missing](#opening-words).",
			"[Case differs](tasks/brew.md#Grind-The-Beans) and [the top](tasks/brew.md#top).",
			"[The tasks folder](tasks/#cleanup) is its README.",
			"[Milk and sugar](tasks/brew.md#milk-sugar) as MkDocs and GitBook write it.",
			"[The grind setting](tasks/brew.md#grindsize) is a term of a definition list.",
			"",
			"## Closing words",
			"",
		}, "\n"),
		"content/kb/tasks/README.md": "# Tasks\n\n## Cleanup\n\nRinse.\n",
		"content/kb/tasks/brew.md": strings.Join([]string{
			"# Brewing",
			"",
			"## Grind the beans",
			"",
			"## Heat the water",
			"",
			"<a id=\"kettle\"></a>A kettle.",
			"",
			"## Weigh {#scale-setup}",
			"",
			"## Milk & sugar",
			"",
			"`grindSize`",
			": How fine the beans are ground.",
			"",
		}, "\n"),
	}
}

// A link's #fragment is checked against the ids the target page's HTML
// has after the unit's render: a missing one is LINK_FRAGMENT_MISSING with
// the file and line, the target and the fragment; ids from headings, from
// heading attributes and from raw HTML anchors count, a heading's id with
// its runs of hyphens made one does too, and the unit's facts
// carry every page's ids for the assembly.
func TestFragmentsOfAUnitsLinksAreCheckedAfterItsRender(t *testing.T) {
	project := filepath.Join(t.TempDir(), "project")
	writeFiles(t, project, fragmentFixture())
	publish := filepath.Join(t.TempDir(), "public")
	logs := &bytes.Buffer{}
	res, err := RenderUnit(context.Background(), UnitOptions{ProjectDir: project, PublishDir: publish,
		Generator: fixtureGenerator(), Repositories: []Repository{{Name: "kb", ContentPath: "kb", DocRoots: []string{"docs"}}}, Unit: "kb",
		Logger: zerolog.New(logs)})
	if err != nil {
		t.Fatalf("RenderUnit: %v\n%s", err, logs)
	}
	var got []string
	for _, is := range res.Issues {
		if is.Code == IssueLinkFragmentMissing {
			got = append(got, is.Path+": "+is.Message)
		}
	}
	sort.Strings(got)
	want := []string{
		`kb/README.md: line 4: link "tasks/brew.md#water-temperature": the page /docs/kb/tasks/brew/ has no element with id "water-temperature"`,
		`kb/README.md: line 7: link "tasks/brew.md#milk-foam": the page /docs/kb/tasks/brew/ has no element with id "milk-foam"`,
		`kb/README.md: line 8: link "#opening-words": the page itself has no element with id "opening-words"`,
		`kb/README.md: line 9: link "tasks/brew.md#Grind-The-Beans": the page /docs/kb/tasks/brew/ has no element with id "Grind-The-Beans" (it has "grind-the-beans")`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("fragment issues:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var facts struct {
		Anchors map[string][]string `json:"anchors"`
	}
	if err := json.Unmarshal(res.Facts, &facts); err != nil {
		t.Fatal(err)
	}
	ids := strings.Join(facts.Anchors["/docs/kb/tasks/brew/"], " ")
	// "Milk & sugar" is milk--sugar in GitHub's style and milk-sugar in
	// MkDocs' and GitBook's: the heading has both (render-heading.html).
	// A term of a definition list has an id, as on Hugo's own site
	// (`cacheDir` and the like in its configuration reference).
	for _, id := range []string{"grind-the-beans", "heat-the-water", "kettle", "scale-setup", "milk--sugar", "milk-sugar", "grindsize"} {
		if !strings.Contains(" "+ids+" ", " "+id+" ") {
			t.Errorf("facts' ids of the brewing page %q lack %q", ids, id)
		}
	}
}
