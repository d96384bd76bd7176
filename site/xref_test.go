package site

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docweave/docweave/site/internal/assembly"
	"github.com/rs/zerolog"
)

// xrefRepos are two repositories: the garden's pages link by id to the
// toolshed's, which declare the ids.
var xrefRepos = []Repository{
	{Name: "garden", ContentPath: "garden", DocRoots: []string{"docs"}},
	{Name: "toolshed", ContentPath: "toolshed", DocRoots: []string{"docs"}},
}

// xrefFixture holds both repositories' pages, by unit.
var xrefFixture = map[string]map[string]string{
	"garden": {
		"content/garden/README.md": strings.Join([]string{
			"# Garden",
			"",
			"Before digging, [set up the tools](xref:install-guide#step-2).",
			"Then [water the beds](xref:watering).",
			"",
			"A [lost reference](xref:install-giude) is spelled wrong.",
			"",
			"The [ninth step](xref:install-guide#step-9) is not there.",
			"",
		}, "\n"),
		"content/garden/watering.md": "---\nid: watering\n---\n# Watering\n\n## Morning\n",
	},
	"toolshed": {
		"content/toolshed/README.md": "# Toolshed\n\nSee [the guide](xref:install-guide).\n",
		"content/toolshed/guide/install.md": strings.Join([]string{
			"---",
			"id: install-guide",
			"title: Installing the shed",
			"---",
			"",
			"## Step 1",
			"",
			"## Step 2",
			"",
		}, "\n"),
		"content/toolshed/guide/old.md": "---\nid: install-guide\n---\n# An older copy\n",
	},
}

// renderXrefUnits renders both units of the fixture alone, as the
// pipeline does, and returns them with each unit's issues.
func renderXrefUnits(t *testing.T) ([]AssembledUnit, map[string][]Issue) {
	t.Helper()
	var units []AssembledUnit
	issues := map[string][]Issue{}
	for _, unit := range []string{"garden", "toolshed"} {
		project := filepath.Join(t.TempDir(), "project")
		writeFiles(t, project, xrefFixture[unit])
		published := filepath.Join(t.TempDir(), "public")
		res, err := RenderUnit(context.Background(), UnitOptions{ProjectDir: project, PublishDir: published,
			Generator: fixtureGenerator(), Repositories: xrefRepos, Unit: unit, Logger: zerolog.Nop()})
		if err != nil {
			t.Fatal(err)
		}
		issues[unit] = res.Issues
		units = append(units, AssembledUnit{Path: unit, ID: unit, Facts: res.Facts, Search: res.Search,
			Place: func(_ context.Context, to string) error { return assembly.LinkTree(published, to) }})
	}
	return units, issues
}

// A link by id into another repository leads, through the redirect page
// the assembly writes from every unit's facts, to the page that declares
// the id, fragment kept; one within the unit leads to the page directly;
// an id declared twice in one unit is XREF_DUPLICATE_ID naming both files;
// an id no page declares is missing, with its file, line and the closest
// id.
func TestLinksByIDResolveAcrossRepositories(t *testing.T) {
	units, issues := renderXrefUnits(t)
	dir := filepath.Join(t.TempDir(), "site")
	if _, err := Assemble(context.Background(), AssembleOptions{WorkDir: t.TempDir(), PublishDir: dir,
		Generator: fixtureGenerator(), Repositories: xrefRepos, Units: units, Logger: zerolog.Nop()}); err != nil {
		t.Fatal(err)
	}

	garden := readPublished(t, dir, "docs/garden/index.html")
	for _, want := range []string{`href="/docs/_xref/install-guide/#step-2"`, `href="/docs/garden/watering/"`} {
		if !strings.Contains(garden, want) {
			t.Errorf("the garden's page has no %s:\n%s", want, between(garden, "<main", "</main>"))
		}
	}
	redirect := readPublished(t, dir, "docs/_xref/install-guide/index.html")
	if !strings.Contains(redirect, `location.replace("/docs/toolshed/guide/install/" + location.hash)`) ||
		!strings.Contains(redirect, `url=/docs/toolshed/guide/install/"`) {
		t.Errorf("the redirect page does not lead to the toolshed's install page:\n%s", redirect)
	}
	target := readPublished(t, dir, "docs/toolshed/guide/install/index.html")
	if !strings.Contains(target, `id="step-2"`) {
		t.Errorf("the install page has no id step-2")
	}
	if m, err := os.ReadFile(filepath.Join(dir, "_redirects")); err != nil || !strings.Contains(string(m), "/docs/_xref/install-guide/ /docs/toolshed/guide/install/ 301") {
		t.Errorf("the redirect map lacks the id (%v):\n%s", err, m)
	}
	if shed := readPublished(t, dir, "docs/toolshed/index.html"); !strings.Contains(shed, `href="/docs/toolshed/guide/install/"`) {
		t.Errorf("a link by id within the toolshed does not lead to its page directly:\n%s", between(shed, "<main", "</main>"))
	}

	var dup []string
	for _, is := range issues["toolshed"] {
		if is.Code == IssueXrefDuplicateID {
			dup = append(dup, is.Path+": "+is.Message)
		}
	}
	if len(dup) != 1 || !strings.Contains(dup[0], "toolshed/guide/install.md") || !strings.Contains(dup[0], "toolshed/guide/old.md") {
		t.Errorf("duplicate ids: %q, want one naming both files", dup)
	}

	missing, err := MissingXrefs(units, xrefRepos, fixtureGenerator().BaseURL)
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) != 1 {
		t.Fatalf("missing ids: %+v, want one", missing)
	}
	m := missing[0]
	if m.Unit != "garden" || m.File != "garden/README.md" || m.Line != 6 || m.ID != "install-giude" || strings.Join(m.Closest, ",") != "install-guide" {
		t.Errorf("missing id: %+v; want garden/README.md line 6, install-giude, closest install-guide", m)
	}
}

// The fragment of a link by id into another repository is checked against
// the ids of the page the id leads to: a heading the page has passes, one
// it lacks is a broken link on the linking file and line, naming the page
// and the repository it is in.
func TestXrefFragmentsAreCheckedAcrossRepositories(t *testing.T) {
	units, _ := renderXrefUnits(t)
	broken, checked, err := CheckXrefFragments(units, nil, xrefRepos, fixtureGenerator().BaseURL)
	if err != nil {
		t.Fatal(err)
	}
	if checked != 2 || len(broken) != 1 {
		t.Fatalf("%d fragments checked, broken %+v; want 2 checked, step-9 broken", checked, broken)
	}
	b := broken[0]
	if b.Unit != "garden" || b.File != "garden/README.md" || b.Line != 8 || b.Dest != "xref:install-guide#step-9" ||
		b.URL != "/docs/toolshed/guide/install" || b.Fragment != "step-9" || b.Target != "toolshed" || b.NoPage {
		t.Errorf("broken link by id: %+v", b)
	}
}
