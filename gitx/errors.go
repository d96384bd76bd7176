package gitx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
)

// Error codes. They are stable strings because the clone stage records them
// in the build report's issues[] and operators alert on them.
const (
	// CodeAuth: the remote refused the credentials (or none were given), the
	// credentials are unusable (unreadable key), or the SSH host key did not
	// verify. Not retried.
	CodeAuth = "CLONE_AUTH"
	// CodeNotFound: the repository does not exist (or is hidden from these
	// credentials, as forges answer 404 for both). Not retried.
	CodeNotFound = "CLONE_NOT_FOUND"
	// CodeBranchNotFound: the requested branch or tag is not on the remote,
	// or the remote has no branches at all. Not retried.
	CodeBranchNotFound = "BRANCH_NOT_FOUND"
	// CodeNetwork: connection refused or reset, timeouts, HTTP 5xx, 408 and
	// 429. Transient: retried with the RetryPolicy.
	CodeNetwork = "CLONE_NETWORK"
	// CodeDiverged: the workspace branch has commits the remote branch does
	// not contain (local commits or a force-push) and HardResetOnDiverge is
	// off. Not retried.
	CodeDiverged = "DIVERGED"
	// CodeCorruptWorkspace: the workspace is not a usable clone of the URL
	// (unreadable objects, refs or index, or another remote). The auto
	// strategy recovers with a fresh clone; update reports it.
	CodeCorruptWorkspace = "CORRUPT_WORKSPACE"
	// CodeFailed: anything else, including invalid requests and
	// cancellation by the caller. Not retried.
	CodeFailed = "CLONE_FAILED"
)

// Error is the only error type Acquire and RemoteHead return, so callers can
// branch on Code and Transient without parsing messages. Its message never
// contains credentials: URLs in it went through RedactURL and the secrets of
// the request were replaced.
type Error struct {
	// Code is one of the Code* constants.
	Code string
	// Transient says whether trying again later may succeed.
	Transient bool
	// Attempts is how many times the operation was tried.
	Attempts int
	// Err is the redacted cause; errors.Is still reaches the original
	// sentinel errors (for example context.Canceled) through it.
	Err error
}

// Error formats as "CODE: cause".
func (e *Error) Error() string { return e.Code + ": " + e.Err.Error() }

// Unwrap exposes the cause to errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.Err }

// redactedError carries a cause whose message has been scrubbed of secrets
// while keeping the cause reachable for errors.Is.
type redactedError struct {
	msg   string
	cause error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.cause }

// newError builds an *Error whose message is scrubbed of secrets.
func newError(code string, transient bool, err error, secrets ...string) *Error {
	return &Error{
		Code:      code,
		Transient: transient,
		Err:       &redactedError{msg: redactText(err.Error(), secrets...), cause: err},
	}
}

// classify turns an error from go-git or the network into an *Error. what
// describes the operation for the message ("clone https://…"); it must
// already be redacted.
func classify(ctx context.Context, what string, err error, secrets ...string) *Error {
	var gerr *Error
	if errors.As(err, &gerr) {
		return gerr
	}
	wrapped := fmt.Errorf("%s: %w", what, err)
	code, transient := codeFor(ctx, err)
	return newError(code, transient, wrapped, secrets...)
}

// codeFor decides the code of a transport error.
func codeFor(ctx context.Context, err error) (string, bool) {
	if ctx.Err() != nil {
		return CodeFailed, false // the caller gave up; retrying is pointless
	}
	chain := causes(err)
	for _, e := range chain {
		switch {
		case errors.Is(e, transport.ErrAuthenticationRequired),
			errors.Is(e, transport.ErrAuthorizationFailed),
			errors.Is(e, transport.ErrInvalidAuthMethod):
			return CodeAuth, false
		case errors.Is(e, transport.ErrRepositoryNotFound):
			return CodeNotFound, false
		case errors.Is(e, transport.ErrEmptyRemoteRepository),
			errors.Is(e, plumbing.ErrReferenceNotFound):
			return CodeBranchNotFound, false
		}
		var httpErr *githttp.Err
		if errors.As(e, &httpErr) {
			if status := httpErr.StatusCode(); status >= 500 || status == http.StatusTooManyRequests || status == http.StatusRequestTimeout {
				return CodeNetwork, true
			}
			return CodeFailed, false
		}
	}
	if isNetworkError(chain) {
		return CodeNetwork, true
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "unable to authenticate"),
		strings.Contains(msg, "knownhosts:"),
		strings.Contains(msg, "known_hosts"),
		strings.Contains(msg, "SSH_AUTH_SOCK"):
		return CodeAuth, false
	case strings.Contains(msg, "couldn't find remote ref"):
		return CodeBranchNotFound, false
	}
	return CodeFailed, false
}

// isNetworkError recognises dropped, refused and timed-out connections.
func isNetworkError(chain []error) bool {
	for _, e := range chain {
		var netErr net.Error
		if errors.As(e, &netErr) && netErr.Timeout() {
			return true
		}
		var dnsErr *net.DNSError
		if errors.As(e, &dnsErr) {
			return true
		}
		for _, errno := range []syscall.Errno{syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.ECONNABORTED,
			syscall.EPIPE, syscall.ETIMEDOUT, syscall.EHOSTUNREACH, syscall.ENETUNREACH} {
			if errors.Is(e, errno) {
				return true
			}
		}
		if errors.Is(e, io.ErrUnexpectedEOF) || errors.Is(e, io.EOF) || errors.Is(e, context.DeadlineExceeded) {
			return true
		}
		var opErr *net.OpError
		if errors.As(e, &opErr) {
			return true
		}
	}
	msg := chain[0].Error()
	for _, s := range []string{"connection reset by peer", "connection refused", "broken pipe", "i/o timeout", "unexpected EOF"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// causes lists err and everything it wraps, including the errors go-git
// wraps in types without an Unwrap method.
func causes(err error) []error {
	var out []error
	queue := []error{err}
	for len(queue) > 0 && len(out) < 64 {
		e := queue[0]
		queue = queue[1:]
		if e == nil {
			continue
		}
		out = append(out, e)
		switch t := e.(type) {
		case *plumbing.UnexpectedError:
			queue = append(queue, t.Err)
		case *plumbing.PermanentError:
			queue = append(queue, t.Err)
		case interface{ Unwrap() []error }:
			queue = append(queue, t.Unwrap()...)
		case interface{ Unwrap() error }:
			queue = append(queue, t.Unwrap())
		}
	}
	return out
}
