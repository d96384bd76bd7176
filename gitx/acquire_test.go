package gitx

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/gittest"
)

func TestHTTPCloneWithoutAuth(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"docs/a.md": "a"})
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{})
	res := mustAcquire(t, Request{URL: srv.Add(t, "org/docs", r), Dir: workdir(t), Depth: 1})
	if res.Commit != r.Head(t) {
		t.Fatalf("commit %s, want %s", res.Commit, r.Head(t))
	}
}

func TestHTTPBasicAuth(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "a"})
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{BasicUser: "alice", BasicPassword: "correct-horse"})
	url := srv.Add(t, "docs", r)

	res := mustAcquire(t, Request{URL: url, Dir: workdir(t), Auth: config.Auth{Type: config.AuthBasic, Username: "alice", Password: "correct-horse"}})
	if res.Commit != r.Head(t) {
		t.Fatalf("commit %s, want %s", res.Commit, r.Head(t))
	}

	before := srv.Requests()
	sleeps := &sleepRecorder{}
	gerr := acquireError(t, Request{URL: url, Dir: workdir(t), Auth: config.Auth{Type: config.AuthBasic, Username: "alice", Password: "wrong-battery"}},
		RetryPolicy{MaxRetries: 3, Initial: time.Second, Sleep: sleeps.Sleep})
	expectCode(t, gerr, CodeAuth, 1)
	if gerr.Transient || len(sleeps.Delays()) != 0 {
		t.Fatalf("auth failure must not be retried: %+v %v", gerr, sleeps.Delays())
	}
	if srv.Requests()-before != 1 {
		t.Fatalf("wrong credentials caused %d requests, want 1", srv.Requests()-before)
	}
	if strings.Contains(gerr.Error(), "wrong-battery") {
		t.Fatalf("password leaked into the error: %v", gerr)
	}

	gerr = acquireError(t, Request{URL: url, Dir: workdir(t)}, noRetry())
	expectCode(t, gerr, CodeAuth, 1)
}

func TestHTTPTokenAuth(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "a"})
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{Token: "ghp_goodtoken"})
	url := srv.Add(t, "docs", r)

	res := mustAcquire(t, Request{URL: url, Dir: workdir(t), Auth: config.Auth{Type: config.AuthToken, Token: "ghp_goodtoken"}})
	if res.Commit != r.Head(t) {
		t.Fatalf("commit %s, want %s", res.Commit, r.Head(t))
	}
	// A custom fixed user name is sent when configured.
	mustAcquire(t, Request{URL: url, Dir: workdir(t), Auth: config.Auth{Type: config.AuthToken, Token: "ghp_goodtoken", Username: "oauth2"}})

	var logs bytes.Buffer
	ctx := zerolog.New(&logs).WithContext(context.Background())
	_, err := Acquire(ctx, Request{URL: url, Dir: workdir(t), Auth: config.Auth{Type: config.AuthToken, Token: "ghp_badtoken"}}, noRetry())
	var gerr *Error
	if !errors.As(err, &gerr) {
		t.Fatalf("err = %v", err)
	}
	expectCode(t, gerr, CodeAuth, 1)
	if strings.Contains(gerr.Error(), "ghp_badtoken") || strings.Contains(logs.String(), "ghp_badtoken") {
		t.Fatalf("token leaked:\nerror: %v\nlogs: %s", gerr, logs.String())
	}
	if !strings.Contains(logs.String(), `"repository"`) || !strings.Contains(logs.String(), CodeAuth) {
		t.Fatalf("failure not logged with repository and code: %s", logs.String())
	}
}

func TestCredentialsInURLAreUsedButNeverShown(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "a"})
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{BasicUser: "bob", BasicPassword: "pa55"})
	url := srv.Add(t, "docs", r)
	good := strings.Replace(url, "http://", "http://bob:pa55@", 1)
	dir := workdir(t)
	mustAcquire(t, Request{URL: good, Dir: dir})
	if cfg := readFile(t, filepath.Join(dir, ".git", "config")); strings.Contains(cfg, "pa55") {
		t.Fatalf("password stored in the workspace's .git/config:\n%s", cfg)
	}
	bad := strings.Replace(url, "http://", "http://bob:wr0ng@", 1)
	gerr := acquireError(t, Request{URL: bad, Dir: workdir(t)}, noRetry())
	expectCode(t, gerr, CodeAuth, 1)
	if strings.Contains(gerr.Error(), "wr0ng") {
		t.Fatalf("URL password leaked: %v", gerr)
	}
}

func TestSSHCloneWithKey(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "over ssh"})
	srv := gittest.NewSSHServer(t, t.TempDir())
	url := srv.Add(t, "org/docs", r)
	knownHosts := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(knownHosts, []byte(srv.HostKeyLine()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	auth := config.Auth{Type: config.AuthSSH, KeyPath: srv.ClientKeyPath()}

	dir := workdir(t)
	res := mustAcquire(t, Request{URL: url, Dir: dir, Depth: 1, Auth: auth, KnownHostsPath: knownHosts})
	if res.Commit != r.Head(t) || readFile(t, filepath.Join(dir, "a.md")) != "over ssh" {
		t.Fatalf("ssh clone: %+v", res)
	}

	// Update over SSH too.
	next := r.Commit(t, map[string]string{"a.md": "v2"}, "v2")
	res = mustAcquire(t, Request{URL: url, Dir: dir, Depth: 1, Auth: auth, KnownHostsPath: knownHosts, Strategy: StrategyUpdate})
	if res.Commit != next || !res.Updated {
		t.Fatalf("ssh update: %+v, want %s", res, next)
	}

	commit, branch, err := RemoteHeadFor(context.Background(), Request{URL: url, Auth: auth, KnownHostsPath: knownHosts})
	if err != nil || commit != next || branch != "main" {
		t.Fatalf("RemoteHeadFor over ssh = %s %s %v", commit, branch, err)
	}
}

func TestSSHRefusesWrongKeyAndUnknownHost(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "a"})
	srv := gittest.NewSSHServer(t, t.TempDir())
	url := srv.Add(t, "docs", r)
	knownHosts := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(knownHosts, []byte(srv.HostKeyLine()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	wrongKey := Request{URL: url, Dir: workdir(t), KnownHostsPath: knownHosts,
		Auth: config.Auth{Type: config.AuthSSH, KeyPath: gittest.WriteSSHKey(t)}}
	expectCode(t, acquireError(t, wrongKey, RetryPolicy{MaxRetries: 2, Sleep: (&sleepRecorder{}).Sleep}), CodeAuth, 1)

	// A known_hosts file that lists another key for this host.
	other := gittest.NewSSHServer(t, t.TempDir())
	otherFields := strings.Fields(other.HostKeyLine())
	otherFields[0] = strings.Fields(srv.HostKeyLine())[0] // this server's host, the other key
	otherLine := strings.Join(otherFields, " ")
	mismatch := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(mismatch, []byte(otherLine+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	badHost := Request{URL: url, Dir: workdir(t), KnownHostsPath: mismatch,
		Auth: config.Auth{Type: config.AuthSSH, KeyPath: srv.ClientKeyPath()}}
	gerr := acquireError(t, badHost, noRetry())
	expectCode(t, gerr, CodeAuth, 1)
	if !strings.Contains(gerr.Error(), "mismatch") {
		t.Fatalf("host key mismatch not reported as such: %v", gerr)
	}

	// The same request succeeds when host keys are explicitly not checked.
	badHost.InsecureIgnoreHostKey = true
	mustAcquire(t, badHost)
}

func TestFlakyServerIsRetriedWithBackoff(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "a"})
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{FailFirst: 2})
	url := srv.Add(t, "docs", r)
	sleeps := &sleepRecorder{}
	policy := RetryPolicy{MaxRetries: 2, Backoff: BackoffExponential, Initial: 3 * time.Second, Max: time.Minute, Sleep: sleeps.Sleep}
	res, err := Acquire(context.Background(), Request{URL: url, Dir: workdir(t), Depth: 1}, policy)
	if err != nil {
		t.Fatalf("Acquire: %v", err)
	}
	if res.Attempts != 3 || res.Commit != r.Head(t) {
		t.Fatalf("result %+v, want success on attempt 3", res)
	}
	got := sleeps.Delays()
	if len(got) != 2 || got[0] != 3*time.Second || got[1] != 6*time.Second {
		t.Fatalf("requested delays %v, want [3s 6s]", got)
	}
}

func TestRetriesExhaustedReportNetworkError(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "a"})
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{FailFirst: 100, FailStatus: 429})
	url := srv.Add(t, "docs", r)
	sleeps := &sleepRecorder{}
	gerr := acquireError(t, Request{URL: url, Dir: workdir(t)}, RetryPolicy{MaxRetries: 2, Backoff: BackoffFixed, Initial: time.Second, Sleep: sleeps.Sleep})
	expectCode(t, gerr, CodeNetwork, 3)
	if !gerr.Transient || len(sleeps.Delays()) != 2 {
		t.Fatalf("want transient after 2 sleeps, got %+v %v", gerr, sleeps.Delays())
	}
	if !strings.Contains(gerr.Error(), "429") {
		t.Fatalf("error does not carry the status: %v", gerr)
	}
}

func TestConnectionResetIsTransient(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "a"})
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{FailFirst: 1, FailReset: true})
	url := srv.Add(t, "docs", r)
	res, err := Acquire(context.Background(), Request{URL: url, Dir: workdir(t)}, RetryPolicy{MaxRetries: 1, Sleep: (&sleepRecorder{}).Sleep})
	if err != nil || res.Attempts != 2 {
		t.Fatalf("reset then success: %+v %v", res, err)
	}
}

func TestConnectionRefusedIsTransient(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there any more
	gerr := acquireError(t, Request{URL: "http://" + addr + "/docs.git", Dir: workdir(t)}, RetryPolicy{MaxRetries: 1, Sleep: (&sleepRecorder{}).Sleep})
	expectCode(t, gerr, CodeNetwork, 2)
	if !gerr.Transient {
		t.Fatal("connection refused must be transient")
	}
}

func TestAttemptTimeoutIsTransient(t *testing.T) {
	addr := blackhole(t)
	req := Request{URL: "http://" + addr + "/docs.git", Dir: workdir(t), AttemptTimeout: 100 * time.Millisecond}
	gerr := acquireError(t, req, RetryPolicy{MaxRetries: 1, Sleep: (&sleepRecorder{}).Sleep})
	expectCode(t, gerr, CodeNetwork, 2)
}

// blackhole listens on 127.0.0.1, accepts connections and never answers,
// like a hung server; it returns the address.
func blackhole(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var held []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	return ln.Addr().String()
}

func TestCancelledContextIsNotRetried(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "a"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Acquire(ctx, Request{URL: gittest.NewHTTPServer(t, gittest.HTTPOptions{}).Add(t, "d", r), Dir: workdir(t)},
		RetryPolicy{MaxRetries: 3, Sleep: (&sleepRecorder{}).Sleep})
	var gerr *Error
	if !errors.As(err, &gerr) || gerr.Transient || gerr.Attempts != 1 || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v (%+v)", err, gerr)
	}
}

func TestInvalidRequestsNameTheProblem(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"a.md": "a"})
	keyless := config.Auth{Type: config.AuthSSH}
	cases := []struct {
		name string
		req  Request
		pol  RetryPolicy
		code string
		want string
	}{
		{"strategy", Request{URL: r.FileURL(), Dir: workdir(t), Strategy: "sideways"}, RetryPolicy{}, CodeFailed, `"sideways"`},
		{"depth", Request{URL: r.FileURL(), Dir: workdir(t), Depth: -1}, RetryPolicy{}, CodeFailed, "depth -1"},
		{"no dir", Request{URL: r.FileURL()}, RetryPolicy{}, CodeFailed, "target directory"},
		{"root dir", Request{URL: r.FileURL(), Dir: "/"}, RetryPolicy{}, CodeFailed, "filesystem root"},
		{"no url", Request{Dir: workdir(t)}, RetryPolicy{}, CodeFailed, "url is empty"},
		{"backoff", Request{URL: r.FileURL(), Dir: workdir(t)}, RetryPolicy{Backoff: "random"}, CodeFailed, `"random"`},
		{"token over file", Request{URL: r.FileURL(), Dir: workdir(t), Auth: config.Auth{Type: config.AuthToken, Token: "t"}}, RetryPolicy{}, CodeAuth, "http(s) url"},
		{"empty token", Request{URL: "https://forge.invalid/a.git", Dir: workdir(t), Auth: config.Auth{Type: config.AuthToken}}, RetryPolicy{}, CodeAuth, "auth.token"},
		{"basic without password", Request{URL: "https://forge.invalid/a.git", Dir: workdir(t), Auth: config.Auth{Type: config.AuthBasic, Username: "u"}}, RetryPolicy{}, CodeAuth, "auth.password"},
		{"ssh over https", Request{URL: "https://forge.invalid/a.git", Dir: workdir(t), Auth: config.Auth{Type: config.AuthSSH, KeyPath: "/k"}}, RetryPolicy{}, CodeAuth, "ssh url"},
		{"ssh without key", Request{URL: "ssh://git@127.0.0.1:1/a.git", Dir: workdir(t), Auth: keyless}, RetryPolicy{}, CodeAuth, "auth.key_path"},
		{"missing key file", Request{URL: "ssh://git@127.0.0.1:1/a.git", Dir: workdir(t), Auth: config.Auth{Type: config.AuthSSH, KeyPath: "/nonexistent/id"}}, RetryPolicy{}, CodeAuth, "/nonexistent/id"},
		{"unknown auth type", Request{URL: "https://forge.invalid/a.git", Dir: workdir(t), Auth: config.Auth{Type: "kerberos"}}, RetryPolicy{}, CodeAuth, `"kerberos"`},
		{"missing known_hosts", Request{URL: "ssh://git@127.0.0.1:1/a.git", Dir: workdir(t), KnownHostsPath: "/nonexistent/kh", Auth: config.Auth{Type: config.AuthSSH, KeyPath: gittest.WriteSSHKey(t)}}, RetryPolicy{}, CodeAuth, "/nonexistent/kh"},
	}
	for _, c := range cases {
		gerr := acquireError(t, c.req, c.pol)
		if gerr.Code != c.code || !strings.Contains(gerr.Error(), c.want) || gerr.Transient {
			t.Errorf("%s: got %v (code %s), want %s mentioning %s", c.name, gerr, gerr.Code, c.code, c.want)
		}
	}
}
