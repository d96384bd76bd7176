package gitx

import (
	"fmt"

	"github.com/docweave/docweave/internal/pathsafe"
)

// SkippedPath is a tree entry the checkout left out, because its name could
// not be written safely (a "..", ".git" in any case or disguise, a control
// character, a name too long for the file system), it collided with
// another entry of the same name, or it was a symbolic link with a target
// no file system accepts. A repository is untrusted input: such an entry
// skips that entry, never the whole repository.
type SkippedPath struct {
	// Path is the entry's slash-separated path in the repository, as the
	// tree spells it; Shown escapes it for a report or a log.
	Path string
	// Reason says why, for the report.
	Reason string
}

// Shown is the path with unprintable bytes escaped (Go syntax, quoted)
// when it has any, for reports and logs.
func (s SkippedPath) Shown() string { return pathsafe.Shown(s.Path) }

// Reasons of skipped entries that are not about the name itself.
const (
	reasonSameName = "another entry of the tree has the same name"
	reasonInDir    = "; the directory and everything in it left out"
)

// maxTreeDepth bounds the directory nesting a checkout follows, so an
// absurdly deep tree cannot exhaust the stack or the file system's path
// length: a directory deeper down is left out with everything in it.
const maxTreeDepth = 256

// maxNameBytes is the longest name a file system accepts (NAME_MAX on
// Linux and most others); a longer name could not be created, and would
// otherwise fail the whole checkout.
const maxNameBytes = 255

// maxLinkTarget is the longest symbolic link target written (PATH_MAX less
// its terminating NUL); a longer one is no link any system can follow.
const maxLinkTarget = 4095

// unsafeName says why a tree entry name cannot be written in a checkout —
// pathsafe's definition, shared with the documentation collector and the
// artifact store, plus the file system's length limit — or returns "".
func unsafeName(name string) string {
	if why := pathsafe.Name(name); why != "" {
		return why
	}
	if len(name) > maxNameBytes {
		return fmt.Sprintf("the name is %d bytes long; file systems take at most %d", len(name), maxNameBytes)
	}
	return ""
}

// skipError marks an entry the writer left out instead of failing the
// checkout.
type skipError struct{ reason string }

func (e *skipError) Error() string { return e.reason }

// errCollision is an entry whose path another entry of the checkout
// already took (on a fresh checkout nothing is ever replaced).
var errCollision = &skipError{reason: reasonSameName}
