package webhook

import (
	"slices"
	"testing"

	"github.com/docweave/docweave/config"
)

func TestMatcherByURL(t *testing.T) {
	m, unmatchable := newMatcher([]config.Repository{
		{Name: "main-docs", URL: "https://github.com/org/repo", Branch: "main"},
		{Name: "stable-docs", URL: "git@github.com:org/repo.git", Branch: "stable"},
		{Name: "other", URL: "https://github.com/org/other"},
		{Name: "broken", URL: ""},
	})
	if !slices.Equal(unmatchable, []string{"broken"}) {
		t.Errorf("unmatchable %v, want [broken]", unmatchable)
	}
	got := names(m.byURL([]string{"", "https://github.com/Org/Repo.git"}))
	if !slices.Equal(got, []string{"main-docs", "stable-docs"}) {
		t.Errorf("byURL = %v, want both configurations of org/repo", got)
	}
	if got := m.byURL([]string{"", "not a url at all://"}); len(got) != 0 {
		t.Errorf("byURL of junk = %v, want none", names(got))
	}
	if r, ok := m.byName("other"); !ok || r.key != "github.com/org/other" {
		t.Errorf("byName(other) = %+v, %v", r, ok)
	}
	if _, ok := m.byName("missing"); ok {
		t.Error("byName(missing) found something")
	}
}
