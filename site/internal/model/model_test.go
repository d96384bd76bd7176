package model

import (
	"reflect"
	"testing"
)

func TestSortIssuesByPathThenCode(t *testing.T) {
	issues := []Issue{
		{Code: IssueUnknownShortcode, Path: "b.md", Message: "2"},
		{Code: IssuePageRenderFailed, Path: "a.md"},
		{Code: IssueFrontMatterInvalid, Path: "b.md"},
		{Code: IssueUnknownShortcode, Path: "b.md", Message: "1"},
	}
	SortIssues(issues)
	want := []Issue{
		{Code: IssuePageRenderFailed, Path: "a.md"},
		{Code: IssueFrontMatterInvalid, Path: "b.md"},
		{Code: IssueUnknownShortcode, Path: "b.md", Message: "1"},
		{Code: IssueUnknownShortcode, Path: "b.md", Message: "2"},
	}
	if !reflect.DeepEqual(issues, want) {
		t.Errorf("sorted = %v, want %v", issues, want)
	}
}

func TestIssueString(t *testing.T) {
	got := Issue{Code: IssueUnknownShortcode, Path: "r/p.md", Message: "line 3: x"}.String()
	if got != "UNKNOWN_SHORTCODE r/p.md: line 3: x" {
		t.Errorf("String = %q", got)
	}
}
