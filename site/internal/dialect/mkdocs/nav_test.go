package mkdocs

import (
	"reflect"
	"strings"
	"testing"

	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/internal/links"
)

func TestNavOrdersPagesDepthFirstWithTheirTitlesAndSections(t *testing.T) {
	u := links.Unit{Root: "r", Pages: map[string]bool{"r/index.md": true, "r/use/run.md": true, "r/use/tune.md": true}}
	data := []byte("site_name: x\nnav:\n  - Start: index.md\n  - Use:\n      - use/run.md\n      - Tuning: use/tune.md\n  - Elsewhere: https://example.org/\n  - Gone: missing.md\n")
	got, problem := Nav("mkdocs.yml", data, u)
	want := map[string]dialect.NavEntry{
		"r/index.md":    {Weight: 1, Title: "Start"},
		"r/use/run.md":  {Weight: 2, Group: "Use"},
		"r/use/tune.md": {Weight: 3, Title: "Tuning", Group: "Use"},
	}
	if problem != "" || !reflect.DeepEqual(got, want) {
		t.Errorf("Nav = %v (%q), want %v", got, problem, want)
	}
}

func TestNavThatIsNotAListIsAProblem(t *testing.T) {
	got, problem := Nav("mkdocs.yml", []byte("nav: index.md\n"), links.Unit{Root: "r"})
	if len(got) != 0 || !strings.Contains(problem, "line 1: nav is not a list") {
		t.Errorf("Nav = %v, %q", got, problem)
	}
	if _, problem := Nav("mkdocs.yml", []byte("nav: [\n"), links.Unit{Root: "r"}); !strings.Contains(problem, "cannot be read") {
		t.Errorf("unreadable file: %q", problem)
	}
}
