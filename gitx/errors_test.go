package gitx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
)

func httpStatusErr(status int) error {
	req, _ := http.NewRequest(http.MethodGet, "https://forge.test/a.git/info/refs", nil)
	return plumbing.NewUnexpectedError(&githttp.Err{Response: &http.Response{StatusCode: status, Request: req}})
}

func TestClassifyTransportErrors(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name      string
		err       error
		code      string
		transient bool
	}{
		{"401", fmt.Errorf("%w: nope", transport.ErrAuthenticationRequired), CodeAuth, false},
		{"403", fmt.Errorf("%w: nope", transport.ErrAuthorizationFailed), CodeAuth, false},
		{"404", transport.ErrRepositoryNotFound, CodeNotFound, false},
		{"empty", transport.ErrEmptyRemoteRepository, CodeBranchNotFound, false},
		{"ref", plumbing.ErrReferenceNotFound, CodeBranchNotFound, false},
		{"500", httpStatusErr(500), CodeNetwork, true},
		{"502", httpStatusErr(502), CodeNetwork, true},
		{"503", httpStatusErr(503), CodeNetwork, true},
		{"429", httpStatusErr(429), CodeNetwork, true},
		{"408", httpStatusErr(408), CodeNetwork, true},
		{"400", httpStatusErr(400), CodeFailed, false},
		{"refused", &url.Error{Op: "Get", URL: "x", Err: &net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}}, CodeNetwork, true},
		{"reset", &net.OpError{Op: "read", Err: syscall.ECONNRESET}, CodeNetwork, true},
		{"eof", fmt.Errorf("read pack: %w", io.ErrUnexpectedEOF), CodeNetwork, true},
		{"dns", &net.DNSError{Err: "no such host", Name: "forge.invalid"}, CodeNetwork, true},
		{"timeout", context.DeadlineExceeded, CodeNetwork, true},
		{"ssh auth", errors.New("ssh: handshake failed: ssh: unable to authenticate, attempted methods [none publickey]"), CodeAuth, false},
		{"host key", errors.New("ssh: handshake failed: knownhosts: key mismatch"), CodeAuth, false},
		{"other", errors.New("something odd"), CodeFailed, false},
	}
	for _, c := range cases {
		got := classify(ctx, "clone https://forge.test/a.git", c.err)
		if got.Code != c.code || got.Transient != c.transient {
			t.Errorf("%s: got %s transient=%v, want %s transient=%v (%v)", c.name, got.Code, got.Transient, c.code, c.transient, got)
		}
		if !strings.HasPrefix(got.Err.Error(), "clone https://forge.test/a.git: ") {
			t.Errorf("%s: message lacks context: %v", c.name, got.Err)
		}
	}
}

func TestClassifyAfterCallerCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got := classify(ctx, "clone x", httpStatusErr(503))
	if got.Code != CodeFailed || got.Transient {
		t.Fatalf("a cancelled caller must not be retried: %+v", got)
	}
}

func TestErrorKeepsCauseButNotSecrets(t *testing.T) {
	cause := fmt.Errorf("Get \"https://u:hunter22@h/x\": %w", context.Canceled)
	e := newError(CodeFailed, false, cause, "hunter22")
	if strings.Contains(e.Error(), "hunter22") {
		t.Fatalf("secret in message: %v", e)
	}
	if !errors.Is(e, context.Canceled) {
		t.Fatal("cause not reachable through errors.Is")
	}
	if !strings.HasPrefix(e.Error(), CodeFailed+": ") {
		t.Fatalf("message should start with the code: %v", e)
	}
}

func TestClassifyKeepsExistingError(t *testing.T) {
	orig := &Error{Code: CodeDiverged, Err: errors.New("x")}
	if got := classify(context.Background(), "y", fmt.Errorf("wrap: %w", orig)); got != orig {
		t.Fatalf("an *Error was reclassified: %+v", got)
	}
}
