package buildstate

import "fmt"

// CorruptError says a record in a bucket cannot be decoded. Retrying
// cannot help, so it is permanent: the pipeline's runner terminates the
// message (it recognises any error with a Permanent method) instead of
// redelivering it.
type CorruptError struct {
	What string // the record, e.g. "build 20261126t…"
	Err  error
}

func (e *CorruptError) Error() string { return fmt.Sprintf("%s: corrupt state: %v", e.What, e.Err) }

// Unwrap returns the decoding error.
func (e *CorruptError) Unwrap() error { return e.Err }

// Permanent marks the error as one a retry cannot fix.
func (e *CorruptError) Permanent() bool { return true }
