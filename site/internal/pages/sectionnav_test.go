package pages

import (
	"reflect"
	"testing"

	"github.com/docweave/docweave/site/internal/dialect"
)

func TestSectionNavsNameFoldersByTheirGroupParentOrFirstPage(t *testing.T) {
	c := &unitsOfContent{summaries: map[string]map[string]dialect.NavEntry{"r": {
		// Most of top/ sits in the group "Top things"; one page is listed elsewhere.
		"r/top/a.md":      {Weight: 3, Title: "A", Group: "Top things"},
		"r/top/b.md":      {Weight: 4, Title: "B", Group: "Top things"},
		"r/top/deep/c.md": {Weight: 5, Title: "C", Group: "Top things", Parent: "B"},
		"r/top/deep/d.md": {Weight: 6, Title: "D", Group: "Top things", Parent: "B"},
		"r/top/stray.md":  {Weight: 9, Title: "Stray", Group: "Other"},
		"r/top/own/e.md":  {Weight: 7, Title: "E", Group: "Top things", Parent: "A"},
		"r/top/own/f.md":  {Weight: 8, Title: "F", Group: "Top things", Parent: "E"},
		"r/top/own/g.md":  {Weight: 10, Title: "G", Group: "Top things", Parent: "B"},
		"r/index.md":      {Weight: 1, Title: "Home"},
		"r/cat/README.md": {Weight: 2, Title: "Cat"},
	}}, categories: map[string]SectionNav{"r/cat": {Title: "Categorised", Weight: 5001}}}
	got := c.sectionNavs()
	want := map[string]SectionNav{
		"r/top":      {Title: "Top things", Weight: 3}, // the outermost folder of its group
		"r/top/deep": {Title: "B", Weight: 5},          // nested under one entry
		"r/top/own":  {Title: "E", Weight: 7},          // its first page's title
		"r/cat":      {Title: "Categorised", Weight: 5001},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sectionNavs = %v, want %v", got, want)
	}
}
