package pipeline

import (
	"errors"
	"fmt"
	"time"
)

// PermanentError marks a failure that redelivery cannot fix (a malformed
// message, a missing artifact that will never appear). The runner
// terminates the message and records the reason.
type PermanentError struct{ Err error }

func (e *PermanentError) Error() string { return "permanent: " + e.Err.Error() }
func (e *PermanentError) Unwrap() error { return e.Err }

// Permanent wraps err as permanent.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &PermanentError{Err: err}
}

// Permanentf formats a permanent error.
func Permanentf(format string, args ...any) error {
	return &PermanentError{Err: fmt.Errorf(format, args...)}
}

// TransientError marks a failure worth retrying after Delay (a broker
// hiccup, a busy dependency). Unmarked errors are treated as transient too,
// with the runner's own backoff, until the stage's MaxDeliver runs out.
type TransientError struct {
	Err   error
	Delay time.Duration
}

func (e *TransientError) Error() string { return "transient: " + e.Err.Error() }
func (e *TransientError) Unwrap() error { return e.Err }

// Transient wraps err as transient, to be retried after delay (0: the
// runner's backoff).
func Transient(err error, delay time.Duration) error {
	if err == nil {
		return nil
	}
	return &TransientError{Err: err, Delay: delay}
}

// IsPermanent reports whether err is marked permanent.
func IsPermanent(err error) bool {
	var p *PermanentError
	if errors.As(err, &p) {
		return true
	}
	// Packages below the pipeline (buildstate) cannot use PermanentError;
	// their errors say it with a method.
	var marked interface{ Permanent() bool }
	return errors.As(err, &marked) && marked.Permanent()
}

// retryDelay is the nak delay for a failed delivery: the error's own delay
// when it has one, else a backoff doubling from 500ms, capped at 30s.
func retryDelay(err error, delivered uint64) time.Duration {
	var t *TransientError
	if errors.As(err, &t) && t.Delay > 0 {
		return t.Delay
	}
	d := 500 * time.Millisecond
	for i := uint64(1); i < delivered && d < 30*time.Second; i++ {
		d *= 2
	}
	if d > 30*time.Second {
		d = 30 * time.Second
	}
	return d
}
