package gitx

import (
	"errors"
	"strings"

	"github.com/docweave/docweave/report"
)

// Issue turns an error of this package into a build-report issue: base
// says where it happened (stage, repository, version) and the error gives
// the code, whether retrying could help and the attempts made. An error
// that is not an *Error keeps CLONE_FAILED. The message is the error's,
// already free of credentials, without the code *Error begins with: the
// code is the issue's own field, so a summary printing both names it once
// (it read "CLONE_NOT_FOUND ghost: CLONE_NOT_FOUND: list references …").
func Issue(base report.Issue, err error) *report.Issue {
	is := base
	is.Code, is.Severity, is.Attempts = report.CodeCloneFailed, report.SeverityError, 1
	cause := err.Error()
	var gerr *Error
	if errors.As(err, &gerr) {
		cause = strings.Replace(cause, gerr.Code+": ", "", 1)
		is.Code, is.Transient = gerr.Code, gerr.Transient
		if gerr.Attempts > 0 {
			is.Attempts = gerr.Attempts
		}
	}
	is.Message = cause
	if base.Message != "" {
		is.Message = base.Message + ": " + cause
	}
	return &is
}
