package gittest

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

func TestGitEnvIsolatesFromUserConfig(t *testing.T) {
	env := strings.Join(GitEnv(), "\n")
	for _, want := range []string{"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=", "GIT_COMMITTER_EMAIL="} {
		if !strings.Contains(env, want) {
			t.Errorf("GitEnv lacks %q", want)
		}
	}
	t.Setenv("GIT_DIR", "/nonexistent")
	for _, kv := range GitEnv() {
		if strings.HasPrefix(kv, "GIT_DIR=") {
			t.Errorf("GitEnv passes the caller's %s through", kv)
		}
	}
}

func TestGitReportsStderrOnFailure(t *testing.T) {
	fake := &recordingTB{TB: t}
	func() {
		defer func() { _ = recover() }()
		Git(fake, t.TempDir(), "rev-parse", "--verify", "no-such-ref")
	}()
	if !strings.Contains(fake.fatal, "no-such-ref") || !strings.Contains(fake.fatal, "rev-parse") {
		t.Fatalf("failure message should name the command and carry git's stderr, got %q", fake.fatal)
	}
}

func TestRequireExecProgramFindsHTTPBackend(t *testing.T) {
	path := requireExecProgram(t, "git-http-backend")
	if err := exec.Command(path, "--help").Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("git-http-backend at %s cannot run: %v", path, err)
		}
	}
}

func TestRequireExecProgramNamesDebianPackage(t *testing.T) {
	fake := &recordingTB{TB: t}
	func() {
		defer func() { _ = recover() }()
		requireExecProgram(fake, "git-no-such-helper")
	}()
	if !strings.Contains(fake.fatal, `"git"`) || !strings.Contains(fake.fatal, "git-no-such-helper") {
		t.Fatalf("message should name the program and the Debian package, got %q", fake.fatal)
	}
}

// recordingTB captures Fatalf instead of ending the real test, so the
// helpers' failure messages can themselves be asserted.
type recordingTB struct {
	testing.TB
	fatal string
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	panic("fatal")
}

// gitWithEnv is Git with extra environment variables.
func gitWithEnv(t *testing.T, dir string, extra []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(RequireGit(t), args...)
	cmd.Dir = dir
	cmd.Env = append(GitEnv(), extra...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}
