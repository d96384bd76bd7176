package finish

import (
	"strings"
	"testing"

	"github.com/docweave/docweave/report"
)

// Only repositories that were rendered (or reused) with no page count as
// empty; a failed one is already counted as failed, and one with pages
// is fine.
func TestMarkEmptyRepositories(t *testing.T) {
	rep := report.Report{Repositories: []report.Repository{
		{Name: "good", Status: "ok", Render: &report.UnitRender{Outcome: report.RenderRendered, Pages: 3}},
		{Name: "typo", Status: "ok", DocFiles: 0, Render: &report.UnitRender{Outcome: report.RenderRendered}},
		{Name: "images", Status: "ok", Version: "v1", DocFiles: 2, Render: &report.UnitRender{Outcome: report.RenderReused}},
		{Name: "broken", Status: "failed"},
		{Name: "refused", Status: "ok", Render: &report.UnitRender{Outcome: report.RenderFailed}},
	}}
	markEmptyRepositories(&rep, map[string][]string{"typo": {"docs/nothing"}})
	if rep.EmptyRepositories != 2 {
		t.Fatalf("EmptyRepositories = %d, want 2 (typo and images@v1)", rep.EmptyRepositories)
	}
	if len(rep.Issues) != 2 {
		t.Fatalf("issues %+v, want one NO_PAGES each", rep.Issues)
	}
	typo, images := rep.Issues[0], rep.Issues[1]
	if typo.Code != report.CodeNoPages || typo.Severity != report.SeverityError || typo.Repository != "typo" ||
		!strings.Contains(typo.Message, `"docs/nothing"`) {
		t.Errorf("issue for typo: %+v", typo)
	}
	if images.Repository != "images" || images.Version != "v1" || !strings.Contains(images.Message, "2 documentation files") {
		t.Errorf("issue for images@v1: %+v", images)
	}
	rep.StaticRendered = true
	rep.DecideOutcome()
	if rep.Outcome != report.OutcomePartial {
		t.Errorf("outcome %s, want partial", rep.Outcome)
	}
}
