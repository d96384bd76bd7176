package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// childRun is what one child process cost: its wall time from start to
// exit, its peak resident memory and the user CPU it spent.
type childRun struct {
	Wall    time.Duration
	MaxRSSB int64 // bytes
	// UserCPU is the child's user CPU time as the kernel accounts it at
	// wait: the process and the descendants it waited for (git's helpers,
	// a build's git commands), so a build and its floor are charged alike.
	UserCPU time.Duration
	Stdout  []byte
	// ExitCode is the child's exit status, -1 when a signal ended it.
	ExitCode int
}

// runChild runs binary with args and env added to the environment, and
// measures it. A child process is the honest way to take peak memory: the
// kernel's max RSS of a fresh process covers everything it mapped, which an
// in-process heap figure does not. Standard error is kept for the error
// message only; it may hold nothing secret because the bench's children run
// on a generated farm without credentials.
func runChild(ctx context.Context, binary string, env []string, args ...string) (childRun, error) {
	var stderr bytes.Buffer
	run, err := measureChild(ctx, binary, env, &stderr, args...)
	if err == nil && run.ExitCode != 0 {
		err = fmt.Errorf("exit status %d", run.ExitCode)
	}
	if err != nil {
		return childRun{}, fmt.Errorf("%s %s: %w: %s", binary, strings.Join(args, " "), err, tail(stderr.String(), 2000))
	}
	return run, nil
}

// measureChild runs binary as runChild does, with its standard error
// going to stderr, and measures it whatever its exit code: a build that
// fails is a figure too. The error is for a child that could not be
// started or waited for; a child killed by ctx has ExitCode -1.
func measureChild(ctx context.Context, binary string, env []string, stderr io.Writer, args ...string) (childRun, error) {
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = append(os.Environ(), env...)
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return childRun{}, err
	}
	run := childRun{Wall: wall, Stdout: stdout.Bytes(), ExitCode: cmd.ProcessState.ExitCode(), UserCPU: cmd.ProcessState.UserTime()}
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
