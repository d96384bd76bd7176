package verifylinks

import (
	"testing"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/report"
)

// An internal broken link that the assembly found broken by another
// repository's change carries the link's line and that repository; other
// broken links carry neither.
func TestBrokenLinkEventsNameTheRepositoryWhoseChangeBrokeThem(t *testing.T) {
	issues := []report.Issue{{Code: report.CodeLinkTargetRemoved, Repository: "kitchen",
		LinkedFrom: &report.LinkSource{Repository: "pantry", Path: "docs/shelf.md", Line: 12, URL: "/docs/kitchen/knives", Fragment: "honing"}}}
	hit := &events.BrokenLink{Internal: true, URL: "https://docs.example.org/docs/kitchen/knives/#honing", Repository: "pantry", SourceFile: "docs/shelf.md"}
	other := &events.BrokenLink{Internal: true, URL: "/docs/kitchen/knives/#sharpening", Repository: "pantry", SourceFile: "docs/shelf.md"}
	external := &events.BrokenLink{URL: "https://example.org/docs/kitchen/knives/#honing", Repository: "pantry", SourceFile: "docs/shelf.md"}
	markBrokenBy([]events.Event{hit, other, external}, issues)
	if hit.SourceLine != 12 || hit.BrokenBy != "kitchen" {
		t.Errorf("the broken link: line %d, broken by %q; want 12, kitchen", hit.SourceLine, hit.BrokenBy)
	}
	if other.SourceLine != 0 || other.BrokenBy != "" || external.BrokenBy != "" {
		t.Errorf("other links were marked: %+v %+v", other, external)
	}
}
