package gitx

import (
	"errors"
	"testing"

	"github.com/docweave/docweave/report"
)

func TestIssueCarriesTheCodeAndAttempts(t *testing.T) {
	base := report.Issue{Stage: "discover", Repository: "r", Version: "v1", Message: "list branches and tags"}
	gerr := &Error{Code: CodeNetwork, Transient: true, Attempts: 3, Err: errors.New("connection refused")}
	is := Issue(base, gerr)
	if is.Code != CodeNetwork || !is.Transient || is.Attempts != 3 || is.Severity != report.SeverityError ||
		is.Stage != "discover" || is.Version != "v1" || is.Message != "list branches and tags: connection refused" {
		t.Fatalf("issue %+v", is)
	}
	if other := Issue(report.Issue{}, errors.New("boom")); other.Code != report.CodeCloneFailed || other.Attempts != 1 || other.Transient {
		t.Fatalf("plain error %+v", other)
	}
}
