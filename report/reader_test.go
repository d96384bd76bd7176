package report

import (
	"reflect"
	"strings"
	"testing"
)

func TestCountForReadersCountsPerRepositoryFromPageIssues(t *testing.T) {
	rep := Report{
		Repositories: []Repository{{Name: "alpha"}, {Name: "beta", Version: "v2"}, {Name: "clean"}},
		Issues: []Issue{
			{Code: CodeRawSyntax, Repository: "alpha", Path: "alpha/a.md", Message: `the rendered page shows shortcode syntax as text: "{{< x >}}"`},
			{Code: CodeRawSyntax, Repository: "alpha", Path: "alpha/a.md", Message: `the rendered page shows alert syntax as text: "[!NOTE]"`},
			{Code: CodeRawSyntax, Repository: "alpha", Path: "alpha/b.md", Message: `the rendered page shows shortcode syntax as text: "{{< y >}}"`},
			{Code: CodeLinkUnresolved, Repository: "alpha", Path: "alpha/b.md", Message: `line 3: image "pic.png" leads to no page or file of the repository's documentation`},
			{Code: CodeLinkUnresolved, Repository: "beta", Version: "v2", Path: "beta/v2/c.md", Message: `line 9: link "gone.md" leads to no page or file of the repository's documentation`},
			{Code: CodeLinkUnresolved, Repository: "beta", Path: "beta/c.md", Message: `line 9: link "other-version.md" leads nowhere`},
			{Code: CodeLinkFragmentMissing, Repository: "beta", Version: "v2", Path: "beta/v2/c.md", Message: `line 4: link "d.md#gone": the page /docs/beta/v2/d/ has no element with id "gone"`},
			{Code: CodeUnknownShortcode, Repository: "alpha", Path: "alpha/a.md", Message: "line 1: not counted"},
		},
	}
	rep.CountForReaders()
	alpha := rep.Repositories[0].Reader
	if alpha.RawSyntaxPages != 2 || !reflect.DeepEqual(alpha.RawSyntax, map[string]int{"shortcode": 2, "alert": 1}) || alpha.ImagesNotPublished != 1 || alpha.DeadLinks != 0 {
		t.Errorf("alpha: %+v", alpha)
	}
	// The first example of each kind comes first, then the rest.
	if len(alpha.Examples) != 4 || !strings.Contains(alpha.Examples[0], "{{< x >}}") || !strings.Contains(alpha.Examples[1], "[!NOTE]") ||
		!strings.Contains(alpha.Examples[2], "pic.png") || !strings.Contains(alpha.Examples[3], "{{< y >}}") {
		t.Errorf("alpha examples: %q", alpha.Examples)
	}
	if beta := rep.Repositories[1].Reader; beta.DeadLinks != 1 || beta.FragmentsMissing != 1 || beta.RawSyntaxPages != 0 {
		t.Errorf("beta v2: %+v (the unversioned issue is no version's)", beta)
	}
	if clean := rep.Repositories[2].Reader; clean == nil || !reflect.DeepEqual(*clean, ReaderCounts{}) {
		t.Errorf("clean: %+v, want zero counts", clean)
	}
	worst, more := rep.ReaderSummary(1)
	if len(worst) != 1 || worst[0].Name != "alpha" || more != 1 {
		t.Errorf("summary: %v, %d more", worst, more)
	}
}

func TestReaderExamplesAreBounded(t *testing.T) {
	rep := Report{Repositories: []Repository{{Name: "big"}}}
	for i := 0; i < 50; i++ {
		rep.Issues = append(rep.Issues, Issue{Code: CodeLinkUnresolved, Repository: "big", Path: "big/p.md",
			Message: "line 1: link \"" + strings.Repeat("é", 400) + "\" leads nowhere"})
	}
	rep.CountForReaders()
	c := rep.Repositories[0].Reader
	if c.DeadLinks != 50 || len(c.Examples) != MaxReaderExamples {
		t.Fatalf("%d dead links, %d examples", c.DeadLinks, len(c.Examples))
	}
	for _, e := range c.Examples {
		if len(e) > maxExample || !strings.HasSuffix(e, "…") {
			t.Errorf("example of %d bytes: %q", len(e), e)
		}
	}
}
