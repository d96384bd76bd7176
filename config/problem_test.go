package config

import (
	"slices"
	"testing"
)

func TestValidationErrorListsOneProblemPerLine(t *testing.T) {
	err := &ValidationError{Problems: []Problem{
		{Key: "build.clone_strategy", Message: `"x" is not allowed; expected one of fresh, update, auto`},
		{Key: "repositories[0].url", Message: "missing; expected the repository's Git clone URL"},
	}}
	want := "build.clone_strategy: \"x\" is not allowed; expected one of fresh, update, auto\n" +
		"repositories[0].url: missing; expected the repository's Git clone URL"
	if got := err.Error(); got != want {
		t.Fatalf("Error() =\n%s\nwant\n%s", got, want)
	}
}

func TestSortProblemsOrdersIndexesNumerically(t *testing.T) {
	ps := []Problem{
		{Key: "repositories[10].name", Message: "b"},
		{Key: "repositories[2].url", Message: "a"},
		{Key: "build.max_retries", Message: "z"},
		{Key: "repositories[2].name", Message: "a"},
		{Key: "build.max_retries", Message: "a"},
	}
	sortProblems(ps)
	var got []string
	for _, p := range ps {
		got = append(got, p.Key+"/"+p.Message)
	}
	want := []string{
		"build.max_retries/a", "build.max_retries/z",
		"repositories[2].name/a", "repositories[2].url/a", "repositories[10].name/b",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("order = %v, want %v", got, want)
	}
}

func TestNaturalCompare(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"a[2]", "a[10]", -1},
		{"a[10]", "a[2]", 1},
		{"a[02]", "a[2]", 0},
		{"abc", "abd", -1},
		{"ab", "abc", -1},
		{"same", "same", 0},
	}
	for _, tc := range cases {
		if got := naturalCompare(tc.a, tc.b); got != tc.want {
			t.Errorf("naturalCompare(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	keys := []string{"clone_concurrency", "clone_strategy", "shallow_depth", "max_retries"}
	cases := map[string]string{
		"clone_concurency": "clone_concurrency",
		"clone_stratgy":    "clone_strategy",
		"shalow_depth":     "shallow_depth",
		"max_retry":        "max_retries",
		"completely_other": "",
		"x":                "",
	}
	for in, want := range cases {
		if got := suggest(in, keys); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "ab", 2}, {"kitten", "sitting", 3}, {"flaw", "lawn", 2}, {"same", "same", 0},
	}
	for _, tc := range cases {
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestProblemStringWithoutKey(t *testing.T) {
	if got := (Problem{Message: "m"}).String(); got != "m" {
		t.Fatalf("String() = %q", got)
	}
}
