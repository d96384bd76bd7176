package report

import "testing"

// build.broken_links: fail makes the warnings of links that lead nowhere
// errors, and the build partial (exit 1); other warnings stay warnings,
// and a report without such links still succeeds.
func TestFailOnBrokenLinksMakesThemErrorsAndTheBuildPartial(t *testing.T) {
	rep := Report{StaticRendered: true, Issues: []Issue{
		{Code: CodeLinkUnresolved, Severity: SeverityWarning},
		{Code: CodeLinkFragmentMissing, Severity: SeverityWarning},
		{Code: CodeRawSyntax, Severity: SeverityWarning},
		{Code: CodeLinkTargetRemoved, Severity: SeverityWarning},
	}}
	rep.FailOnBrokenLinks()
	rep.DecideOutcome()
	want := []string{SeverityError, SeverityError, SeverityWarning, SeverityWarning}
	for i, is := range rep.Issues {
		if is.Severity != want[i] {
			t.Errorf("%s is %s, want %s", is.Code, is.Severity, want[i])
		}
	}
	if rep.BrokenLinkErrors != 2 || rep.ExitCode() != 1 || rep.Outcome != OutcomePartial {
		t.Errorf("broken link errors %d, exit %d, outcome %s; want 2, 1, partial", rep.BrokenLinkErrors, rep.ExitCode(), rep.Outcome)
	}
	clean := Report{StaticRendered: true, Issues: []Issue{{Code: CodeRawSyntax, Severity: SeverityWarning}}}
	clean.FailOnBrokenLinks()
	if clean.ExitCode() != 0 {
		t.Errorf("a build without broken links exits %d", clean.ExitCode())
	}
}

// An unresolved link by id and a duplicate id are errors that make the
// build partial even with build.broken_links: warn (no FailOnBrokenLinks).
func TestIDErrorsMakeTheBuildPartialWhateverBrokenLinksSays(t *testing.T) {
	rep := Report{StaticRendered: true, Issues: []Issue{
		{Code: CodeXrefUnresolved, Severity: SeverityWarning},
		{Code: CodeXrefDuplicateID, Severity: SeverityError},
		{Code: CodeLinkUnresolved, Severity: SeverityWarning},
	}}
	rep.CountIDErrors()
	rep.DecideOutcome()
	if rep.Issues[0].Severity != SeverityError || rep.Issues[2].Severity != SeverityWarning {
		t.Errorf("severities %s, %s; want error, warning", rep.Issues[0].Severity, rep.Issues[2].Severity)
	}
	if rep.BrokenLinkErrors != 2 || rep.ExitCode() != 1 || rep.Outcome != OutcomePartial {
		t.Errorf("errors %d, exit %d, outcome %s; want 2, 1, partial", rep.BrokenLinkErrors, rep.ExitCode(), rep.Outcome)
	}
}
