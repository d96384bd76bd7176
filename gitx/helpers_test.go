package gitx

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/docweave/docweave/internal/gittest"
)

// sleepRecorder is an injectable RetryPolicy.Sleep that records the
// requested delays instead of waiting.
type sleepRecorder struct {
	mu     sync.Mutex
	delays []time.Duration
}

func (s *sleepRecorder) Sleep(_ context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delays = append(s.delays, d)
	return nil
}

func (s *sleepRecorder) Delays() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.delays...)
}

// noRetry is a policy for tests that expect one attempt.
func noRetry() RetryPolicy {
	return RetryPolicy{Sleep: (&sleepRecorder{}).Sleep}
}

// workdir is a not-yet-existing target directory inside a temp dir.
func workdir(t *testing.T) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "ws")
}

func mustAcquire(t *testing.T, req Request) Result {
	t.Helper()
	res, err := Acquire(context.Background(), req, noRetry())
	if err != nil {
		t.Fatalf("Acquire(%s into %s): %v", req.URL, req.Dir, err)
	}
	return res
}

// acquireError runs Acquire expecting failure and returns the *Error.
func acquireError(t *testing.T, req Request, retry RetryPolicy) *Error {
	t.Helper()
	_, err := Acquire(context.Background(), req, retry)
	if err == nil {
		t.Fatalf("Acquire(%s) succeeded, want an error", req.URL)
	}
	var gerr *Error
	if !errors.As(err, &gerr) {
		t.Fatalf("Acquire returned %T %v, want *gitx.Error", err, err)
	}
	return gerr
}

func expectCode(t *testing.T, gerr *Error, code string, attempts int) {
	t.Helper()
	if gerr.Code != code || gerr.Attempts != attempts {
		t.Fatalf("got %s after %d attempts (%v), want %s after %d", gerr.Code, gerr.Attempts, gerr, code, attempts)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return string(b)
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// commitCount counts the commits the git command line sees in dir, which
// honours the shallow list go-git writes.
func commitCount(t *testing.T, dir string) int {
	t.Helper()
	n, err := strconv.Atoi(gittest.Git(t, dir, "rev-list", "--count", "HEAD"))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// gitHead is HEAD of a clone as the git command line reads it.
func gitHead(t *testing.T, dir string) string {
	t.Helper()
	return gittest.Git(t, dir, "rev-parse", "HEAD")
}

// repoWithHistory makes a repository with n commits touching docs/page.md.
func repoWithHistory(t *testing.T, n int) *gittest.Repo {
	t.Helper()
	r := gittest.NewRepo(t, map[string]string{"docs/page.md": "v1"})
	for i := 2; i <= n; i++ {
		r.Commit(t, map[string]string{"docs/page.md": "v" + strconv.Itoa(i)}, "change "+strconv.Itoa(i))
	}
	return r
}
