// Package giteatest runs a real Gitea (Version) on 127.0.0.1 and a random
// port for tests: forge discovery, webhook registration and push webhooks
// are tried against the forge itself, not only against servers written
// from its documentation (internal/forgetest). Gitea is built from its Go
// module source once per machine (see install) and each Server runs in a
// temporary folder with SQLite. A test never skips when Go, git or a C
// compiler is missing: it fails and says what to install.
package giteatest

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docweave/docweave/internal/gittest"
)

// Admin is the administrator every Server is set up with; Password is its
// password (Git over HTTP and the token request use them).
const (
	Admin    = "docweave"
	Password = "docweave-test-password-1"
)

// Server is one running Gitea.
type Server struct {
	// URL is the instance root, http://127.0.0.1:port (no trailing
	// slash): forges[].base_url, and the prefix of clone URLs.
	URL string
	// Token is an API token of Admin with write access to organisations,
	// repositories and users.
	Token string
	dir   string
	bin   string
	ini   string
}

// New starts a Gitea in a temporary folder and returns it once its API
// answers; t.Cleanup stops it. Start one per test binary: it takes a few
// seconds, and tests stay apart by using organisations of their own.
func New(t testing.TB) *Server {
	t.Helper()
	gittest.RequireGit(t)
	static := install(t)
	dir := t.TempDir()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{URL: "http://127.0.0.1:" + strconv.Itoa(port), dir: dir, bin: filepath.Join(static, "gitea"), ini: filepath.Join(dir, "app.ini")}
	if err := os.WriteFile(s.ini, []byte(appIni(dir, static, port)), 0o600); err != nil {
		t.Fatal(err)
	}
	s.run(t, "migrate")
	s.run(t, "admin", "user", "create", "--admin", "--username", Admin, "--password", Password,
		"--email", Admin+"@docweave.invalid", "--must-change-password=false")

	var logs bytes.Buffer
	web := s.command("web")
	web.Stdout, web.Stderr = &logs, &logs
	if err := web.Start(); err != nil {
		t.Fatalf("giteatest: start gitea web: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- web.Wait() }()
	t.Cleanup(func() {
		_ = web.Process.Kill()
		<-exited
	})
	deadline := time.Now().Add(2 * time.Minute)
	for {
		resp, err := http.Get(s.URL + "/api/v1/version")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("giteatest: gitea web exited: %v\n%s", err, logs.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("giteatest: Gitea did not answer on %s within 2 minutes\n%s", s.URL, logs.String())
		}
	}
	s.Token = s.createToken(t)
	return s
}

// command is the gitea binary run with this server's configuration and
// folders. As root (CI containers), Gitea refuses to start unless told
// otherwise: app.ini then sets I_AM_BEING_UNSAFE_RUNNING_AS_ROOT, as the
// rest of the tests run as root anyway and Gitea listens on loopback only.
func (s *Server) command(args ...string) *exec.Cmd {
	full := append(args, "--config", s.ini, "--work-path", s.dir, "--custom-path", filepath.Join(s.dir, "custom"))
	cmd := exec.Command(s.bin, full...)
	cmd.Dir = s.dir
	cmd.Env = append(giteaEnv(), "HOME="+s.dir, "GITEA_WORK_DIR="+s.dir)
	return cmd
}

// giteaEnv is the caller's environment without GIT_* variables. Gitea
// writes its own global Git configuration (git config --global, under its
// data folder); given gittest's GIT_CONFIG_GLOBAL=/dev/null, git would
// replace /dev/null with that file.
func giteaEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return env
}

// run runs a gitea subcommand to completion.
func (s *Server) run(t testing.TB, args ...string) {
	t.Helper()
	out, err := s.command(args...).CombinedOutput()
	if err != nil {
		t.Fatalf("giteatest: gitea %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// appIni is the smallest configuration that serves the API, Git over
// HTTP and webhooks to loopback addresses, with everything it writes
// under dir.
func appIni(dir, static string, port int) string {
	root := ""
	if os.Getuid() == 0 {
		root = "I_AM_BEING_UNSAFE_RUNNING_AS_ROOT = true\n"
	}
	return fmt.Sprintf(`APP_NAME = docweave tests
RUN_MODE = prod
WORK_PATH = %[1]s
%[4]s
[server]
PROTOCOL = http
HTTP_ADDR = 127.0.0.1
HTTP_PORT = %[3]d
ROOT_URL = http://127.0.0.1:%[3]d/
LOCAL_ROOT_URL = http://127.0.0.1:%[3]d/
STATIC_ROOT_PATH = %[2]s
APP_DATA_PATH = %[1]s/data
DISABLE_SSH = true
START_SSH_SERVER = false
LFS_START_SERVER = false
OFFLINE_MODE = true

[database]
DB_TYPE = sqlite3
PATH = %[1]s/data/gitea.db

[repository]
ROOT = %[1]s/repositories
DEFAULT_BRANCH = main

[security]
INSTALL_LOCK = true
SECRET_KEY = docweave-tests-secret-key-not-secret
PASSWORD_HASH_ALGO = pbkdf2_hi

[oauth2]
ENABLED = false

[service]
DISABLE_REGISTRATION = true
REQUIRE_SIGNIN_VIEW = false

[webhook]
ALLOWED_HOST_LIST = loopback
DELIVER_TIMEOUT = 10

[indexer]
ISSUE_INDEXER_TYPE = db

[mailer]
ENABLED = false

[log]
MODE = console
LEVEL = Warn
ROOT_PATH = %[1]s/log
`, dir, static, port, root)
}

// freePort reserves a port on 127.0.0.1 and releases it for Gitea (which
// takes its port from app.ini, so it cannot be told to pick one).
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("giteatest: reserve a port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
