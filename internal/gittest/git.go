// Package gittest gives tests across docweave real Git remotes to talk to: a
// working repository made with the git command line, a smart-HTTP server
// (git http-backend behind net/http/cgi) and an SSH server that runs
// git-upload-pack. Tests exercise the same code paths production uses against
// a forge, so nothing here is a mock; every helper fails the test (never
// skips it) when the git tools it needs are missing.
package gittest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// debianPackageHint tells the reader of a failed test what to install.
const debianPackageHint = `install the Debian package "git" (apt-get install git)`

// GitEnv returns the environment every git process started by this package
// runs with: the caller's environment minus anything that would make the
// result depend on the machine (global and system config, prompts), plus a
// fixed author and committer so commit hashes are reproducible in content.
// It is exported so tests that run git themselves behave the same way.
func GitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GIT_") {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME=Docweave Test",
		"GIT_AUTHOR_EMAIL=test@docweave.invalid",
		"GIT_COMMITTER_NAME=Docweave Test",
		"GIT_COMMITTER_EMAIL=test@docweave.invalid",
	)
}

var (
	gitPathOnce sync.Once
	gitPath     string
	gitPathErr  error
)

// RequireGit returns the path of the git program, failing the test with the
// package to install when it is absent.
func RequireGit(t testing.TB) string {
	t.Helper()
	gitPathOnce.Do(func() { gitPath, gitPathErr = exec.LookPath("git") })
	if gitPathErr != nil {
		t.Fatalf("gittest: the git command line is required but was not found in PATH (%v); %s", gitPathErr, debianPackageHint)
	}
	return gitPath
}

// requireExecProgram returns the path of a helper program that lives in git's
// exec path (git-http-backend, git-upload-pack).
func requireExecProgram(t testing.TB, name string) string {
	t.Helper()
	git := RequireGit(t)
	out, err := exec.Command(git, "--exec-path").Output()
	if err != nil {
		t.Fatalf("gittest: git --exec-path: %v; %s", err, debianPackageHint)
	}
	path := filepath.Join(strings.TrimSpace(string(out)), name)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("gittest: %s is required but missing (%v); %s", name, err, debianPackageHint)
	}
	return path
}

// Git runs the git command line in dir with GitEnv and returns its trimmed
// standard output, failing the test with git's standard error on failure.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(RequireGit(t), args...)
	cmd.Dir = dir
	cmd.Env = GitEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("gittest: git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, stderr.String())
	}
	return strings.TrimSpace(stdout.String())
}
