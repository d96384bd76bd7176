package gitx

import (
	"errors"

	"github.com/docweave/docweave/report"
)

// Issue turns an error of this package into a build-report issue: base
// says where it happened (stage, repository, version) and the error gives
// the code, whether retrying could help and the attempts made. An error
// that is not an *Error keeps CLONE_FAILED. The message is the error's,
// already free of credentials.
func Issue(base report.Issue, err error) *report.Issue {
	is := base
	is.Code, is.Severity, is.Message, is.Attempts = report.CodeCloneFailed, report.SeverityError, err.Error(), 1
	if base.Message != "" {
		is.Message = base.Message + ": " + err.Error()
	}
	var gerr *Error
	if errors.As(err, &gerr) {
		is.Code, is.Transient = gerr.Code, gerr.Transient
		if gerr.Attempts > 0 {
			is.Attempts = gerr.Attempts
		}
	}
	return &is
}
