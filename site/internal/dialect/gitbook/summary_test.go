package gitbook

import (
	"reflect"
	"testing"

	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/internal/links"
)

func TestSummaryListsLinkedPagesInOrder(t *testing.T) {
	u := links.Unit{Root: "gb", Pages: map[string]bool{"gb/README.md": true, "gb/guide/README.md": true, "gb/guide/setup.md": true, "gb/SUMMARY.md": true},
		Dirs: map[string]bool{"gb/guide": true}}
	data := []byte("# Contents\n\n* [Welcome](README.md)\n* [Guide](guide/)\n  * [Set up](guide/setup.md \"tip\")\n  * [Again](guide/setup.md)\n* [Site](https://example.org/)\n")
	want := map[string]dialect.NavEntry{
		"gb/README.md":       {Weight: 1, Title: "Welcome"},
		"gb/guide/README.md": {Weight: 2, Title: "Guide"},
		"gb/guide/setup.md":  {Weight: 3, Title: "Set up"},
	}
	if got := Summary(data, u); !reflect.DeepEqual(got, want) {
		t.Errorf("Summary = %v, want %v", got, want)
	}
	if f := SummaryFile(u, ""); f != "gb/SUMMARY.md" {
		t.Errorf("SummaryFile = %q", f)
	}
	if !IsSummaryFile(u, "", "gb/SUMMARY.md") || IsSummaryFile(u, "TOC.md", "gb/SUMMARY.md") {
		t.Error("IsSummaryFile does not follow .gitbook.yaml's structure.summary")
	}
}
