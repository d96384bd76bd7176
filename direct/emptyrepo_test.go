package direct

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/report"
)

// Issue 15: a paths entry that matches nothing is a warning in the report,
// and a repository that gives no page makes the build partial (exit 1),
// never "success — 0 pages". The other repository is still published.
func TestARepositoryWhosePathsMatchNothingMakesTheBuildPartial(t *testing.T) {
	good := gittest.NewRepo(t, map[string]string{"docs/index.md": "# Good\n"})
	typo := gittest.NewRepo(t, map[string]string{"documentation/index.md": "# Written elsewhere\n"})
	cfg := config.Default()
	cfg.Repositories = []config.Repository{
		{Name: "good", URL: good.FileURL()},
		{Name: "typo", URL: typo.FileURL(), Paths: []string{"docs/guide"}},
	}
	cfg.Output.Directory = filepath.Join(t.TempDir(), "site")
	rep, err := Build(context.Background(), &cfg, Options{Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ExitCode() != 1 || rep.Outcome != report.OutcomePartial || rep.EmptyRepositories != 1 {
		t.Fatalf("exit %d, outcome %s, empty %d; want 1, partial, 1", rep.ExitCode(), rep.Outcome, rep.EmptyRepositories)
	}
	var missing, noPages bool
	for _, is := range rep.Issues {
		switch {
		case is.Code == report.CodeDocsPathMissing && is.Repository == "typo" && is.Path == "docs/guide" && is.Severity == report.SeverityWarning:
			missing = true
		case is.Code == report.CodeNoPages && is.Repository == "typo" && is.Severity == report.SeverityError:
			noPages = true
		case is.Repository == "good":
			t.Errorf("issue for the good repository: %+v", is)
		}
	}
	if !missing || !noPages {
		t.Errorf("want a DOCS_PATH_MISSING warning and a NO_PAGES error for typo; issues: %+v", rep.Issues)
	}
	if rep.RenderedPages != 1 || !rep.StaticRendered {
		t.Errorf("rendered %d pages (static %v); the good repository is still published", rep.RenderedPages, rep.StaticRendered)
	}
}
