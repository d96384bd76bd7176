package assemble

import (
	"strings"
	"testing"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/site"
)

// A broken link across repositories is reported on the linking repository
// with its file and line; one this build broke is also reported under the
// repository whose change removed its target, naming the linking
// repository, file and line.
func TestBrokenLinksAcrossRepositoriesAreReportedWhereWrittenAndWhereBroken(t *testing.T) {
	var gone, missing site.CrossUnitLink
	gone.Unit, gone.Target, gone.File, gone.Line, gone.Dest, gone.URL, gone.NoPage, gone.Removed =
		"pantry", "kitchen/v2", "pantry/shelf.md", 7, "/docs/kitchen/v2/ovens/", "/docs/kitchen/v2/ovens", true, true
	missing.Unit, missing.Target, missing.File, missing.Line, missing.Dest, missing.URL, missing.Fragment =
		"pantry", "kitchen/v2", "pantry/shelf.md", 9, "/docs/kitchen/v2/knives/#honing", "/docs/kitchen/v2/knives", "honing"
	byPath := map[string]events.UnitOutcome{
		"pantry":     {Repository: "pantry", ContentPath: "pantry"},
		"kitchen/v2": {Repository: "kitchen", Version: "v2", ContentPath: "kitchen/v2"},
	}
	fileOf := func(o events.UnitOutcome, f string) string { return "docs/" + strings.TrimPrefix(f, o.ContentPath+"/") }
	issues := brokenLinkIssues([]site.CrossUnitLink{gone, missing}, byPath, fileOf)
	if len(issues) != 3 {
		t.Fatalf("%d issues, want 3: %+v", len(issues), issues)
	}
	if is := issues[0]; is.Code != report.CodeLinkUnresolved || is.Repository != "pantry" || is.Path != "docs/shelf.md" || !strings.HasPrefix(is.Message, "line 7: ") {
		t.Errorf("the missing page: %+v", is)
	}
	removed := issues[1]
	if removed.Code != report.CodeLinkTargetRemoved || removed.Repository != "kitchen" || removed.Version != "v2" || removed.LinkedFrom == nil ||
		*removed.LinkedFrom != (report.LinkSource{Repository: "pantry", Path: "docs/shelf.md", Line: 7, URL: "/docs/kitchen/v2/ovens"}) {
		t.Errorf("the removed target: %+v %+v", removed, removed.LinkedFrom)
	}
	if is := issues[2]; is.Code != report.CodeLinkFragmentMissing || !strings.Contains(is.Message, `"honing"`) || !strings.HasPrefix(is.Message, "line 9: ") {
		t.Errorf("the missing fragment: %+v", is)
	}
}

// A link by id whose id no page declares is XREF_UNRESOLVED, an error, on
// the linking repository with its file, line and the closest ids.
func TestMissingXrefsAreErrorsOnTheLinkingRepository(t *testing.T) {
	var m site.MissingXref
	m.Unit, m.File, m.Line, m.Dest, m.ID, m.Closest = "pantry", "pantry/shelf.md", 4, "xref:jam-recipe", "jam-recipe", []string{"jam-recipes"}
	byPath := map[string]events.UnitOutcome{"pantry": {Repository: "pantry", ContentPath: "pantry"}}
	fileOf := func(o events.UnitOutcome, f string) string { return "docs/" + strings.TrimPrefix(f, o.ContentPath+"/") }
	issues := xrefIssues([]site.MissingXref{m}, byPath, fileOf)
	if len(issues) != 1 {
		t.Fatalf("%d issues, want 1", len(issues))
	}
	is := issues[0]
	if is.Code != report.CodeXrefUnresolved || is.Severity != report.SeverityError || is.Repository != "pantry" || is.Path != "docs/shelf.md" ||
		is.Message != `line 4: link "xref:jam-recipe": no page of the site declares the id "jam-recipe" (did you mean jam-recipes?)` {
		t.Errorf("the missing id: %+v", is)
	}
}
