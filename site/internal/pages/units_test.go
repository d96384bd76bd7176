package pages

import (
	"reflect"
	"testing"

	"github.com/docweave/docweave/site/internal/links"
	"github.com/docweave/docweave/site/internal/model"
)

// A versioned repository's links resolve within their own version.
func TestLinksOfAVersionStayInTheirVersion(t *testing.T) {
	units := newUnitsOfContent(Tree{
		Dirs:     []string{"gb", "gb/v1", "gb/v2", "gb/v1/guide", "gb/v2/guide"},
		Markdown: []string{"gb/v1/index.md", "gb/v1/guide/setup.md", "gb/v2/index.md", "gb/v2/guide/setup.md"},
	}, []model.Repository{{Name: "gb", ContentPath: "gb", DocRoots: []string{"docs"},
		Versions: []model.Version{{Name: "v1", Slug: "v1", SourceURL: "https://x/v1/{path}"}, {Name: "v2", Slug: "v2", Default: true}}}}, "", "/")
	u, ok := units.of("gb/v1/index.md")
	if !ok || u.Root != "gb/v1" || u.SourceURL != "https://x/v1/{path}" {
		t.Fatalf("unit of gb/v1/index.md: %+v, %v", u, ok)
	}
	body := []byte("[setup](/docs/guide/setup.md) and [v2](../v2/index.md)\n")
	pairs, issues, _ := links.Resolve("gb/v1/index.md", body, 0, u)
	want := [][2]string{
		{"/docs/guide/setup.md", "guide/setup.md"},
		// Into another version's tree: outside this version, so to the
		// forge's file of this version's branch.
		{"../v2/index.md", "https://x/v1/v2/index.md"},
	}
	if !reflect.DeepEqual(pairs, want) || len(issues) != 0 {
		t.Errorf("links resolved to %q (issues %v), want %q", pairs, issues, want)
	}
}
