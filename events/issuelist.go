package events

import (
	"fmt"
	"sort"

	"github.com/docweave/docweave/report"
)

// MaxInlineIssues is how many issues a message or record carries as they
// are. A repository can give thousands of issues (a link to a missing page
// on every page), and a message holding them all would outgrow the broker:
// a longer list is stored whole in the artifact store (the claim-check
// pattern) and only its first MaxInlineIssues, errors first, ride along
// for logs and status pages.
const MaxInlineIssues = 8

// IssueList is a list of issues as messages and records carry it, bounded
// whatever the site: every issue in Issues when IssuesRef is empty; else
// all IssuesTotal of them in the artifact IssuesRef (package spill writes
// and reads it) and a preview of at most MaxInlineIssues in Issues.
// Embedded in a message, its fields keep the JSON name "issues" that the
// full list had before.
type IssueList struct {
	Issues []report.Issue `json:"issues,omitempty"`
	// IssuesRef is the artifact reference of the whole list, set when it
	// is longer than MaxInlineIssues.
	IssuesRef string `json:"issues_ref,omitempty"`
	// IssuesTotal is the length of the whole list when IssuesRef is set.
	IssuesTotal int `json:"issues_total,omitempty"`
}

// Issued makes an IssueList of a short list, known to be whole.
func Issued(issues ...report.Issue) IssueList { return IssueList{Issues: issues} }

// Total is the number of issues in the whole list.
func (l IssueList) Total() int {
	if l.IssuesRef != "" {
		return l.IssuesTotal
	}
	return len(l.Issues)
}

// Whole reports whether Issues is the whole list (nothing was stored
// aside).
func (l IssueList) Whole() bool { return l.IssuesRef == "" }

// Preview returns at most MaxInlineIssues of issues, errors first and
// otherwise in their order: what a list too long to carry shows inline.
func Preview(issues []report.Issue) []report.Issue {
	if len(issues) <= MaxInlineIssues {
		return issues
	}
	idx := make([]int, len(issues))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ea := issues[idx[a]].Severity == report.SeverityError
		eb := issues[idx[b]].Severity == report.SeverityError
		return ea && !eb
	})
	out := make([]report.Issue, MaxInlineIssues)
	for i := range out {
		out[i] = issues[idx[i]]
	}
	return out
}

// IssueHolder is a message that carries issue lists. The runner bounds
// every list of every message a stage returns before publishing it
// (pipeline's spill middleware), so a stage may collect as many issues as
// it finds.
type IssueHolder interface {
	IssueLists() []*IssueList
}

// IssueLists implements IssueHolder for the messages that embed one list.
func (l *IssueList) IssueLists() []*IssueList { return []*IssueList{l} }

// IssueLists implements IssueHolder.
func (m *RepoPruned) IssueLists() []*IssueList { return []*IssueList{&m.Outcome.IssueList} }

// IssueLists implements IssueHolder.
func (m *UnitRendered) IssueLists() []*IssueList { return []*IssueList{&m.Outcome.IssueList} }

// IssueLists implements IssueHolder: the site's own list (the units'
// lists travel inside their stored outcome lists).
func (m *SiteRendered) IssueLists() []*IssueList { return []*IssueList{&m.IssueList} }

// MaxEventBytes bounds an encoded message, well below the broker's
// smallest usual max_payload (1 MB): whatever grows with pages, issues,
// links or URLs travels by reference, so a message over it is a bug, and
// publishing it again would fail again.
const MaxEventBytes = 256 << 10

// CheckSize reports a message whose encoding is over MaxEventBytes.
func CheckSize(ev Event) error {
	data, err := Encode(ev)
	if err != nil {
		return err
	}
	if len(data) > MaxEventBytes {
		return &TooLargeError{Subject: ev.Subject(), ID: ev.Head().ID, Bytes: len(data)}
	}
	return nil
}

// TooLargeError is a message over MaxEventBytes. It is permanent: the same
// message would be refused again.
type TooLargeError struct {
	Subject, ID string
	Bytes       int
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("message %s %s is %d bytes, over the bound of %d bytes", e.Subject, e.ID, e.Bytes, MaxEventBytes)
}

// Permanent marks the error permanent for the runner.
func (e *TooLargeError) Permanent() bool { return true }
