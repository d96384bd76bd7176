package bench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// childRun is what one child process cost: its wall time from start to
// exit and its peak resident memory.
type childRun struct {
	Wall    time.Duration
	MaxRSSB int64 // bytes
	Stdout  []byte
}

// runChild runs binary with args and env added to the environment, and
// measures it. A child process is the honest way to take peak memory: the
// kernel's max RSS of a fresh process covers everything it mapped, which an
// in-process heap figure does not. Standard error is kept for the error
// message only; it may hold nothing secret because the bench's children run
// on a generated farm without credentials.
func runChild(ctx context.Context, binary string, env []string, args ...string) (childRun, error) {
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return childRun{}, fmt.Errorf("%s %s: %w: %s", binary, strings.Join(args, " "), err, tail(stderr.String(), 2000))
	}
	run := childRun{Wall: wall, Stdout: stdout.Bytes()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		run.MaxRSSB = ru.Maxrss * 1024 // Linux reports kilobytes
	}
	return run, nil
}

// tail keeps the last n bytes of s, where a failing command says why.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
