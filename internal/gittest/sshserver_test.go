package gittest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

func TestSSHServerCloneWithGitCommandLine(t *testing.T) {
	r := NewRepo(t, map[string]string{"docs/a.md": "a"})
	s := NewSSHServer(t, t.TempDir())
	url := s.Add(t, "org/docs", r)
	if !strings.HasPrefix(url, "ssh://git@127.0.0.1:") || !strings.HasSuffix(url, "/org/docs.git") {
		t.Fatalf("URL = %q", url)
	}
	knownHosts := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(knownHosts, []byte(s.HostKeyLine()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "c")
	sshCmd := "ssh -F /dev/null -o BatchMode=yes -o IdentitiesOnly=yes -o StrictHostKeyChecking=yes" +
		" -o UserKnownHostsFile=" + knownHosts + " -i " + s.ClientKeyPath()
	cmdEnv := t.TempDir()
	out := gitWithEnv(t, cmdEnv, []string{"GIT_SSH_COMMAND=" + sshCmd}, "clone", "-q", url, dst)
	_ = out
	if got := Git(t, dst, "rev-parse", "HEAD"); got != r.Head(t) {
		t.Fatalf("cloned %s, want %s", got, r.Head(t))
	}
}

func TestSSHServerUploadPackAdvertisesRefs(t *testing.T) {
	r := NewRepo(t, map[string]string{"a.md": "a"})
	s := NewSSHServer(t, t.TempDir())
	s.Add(t, "docs", r)
	out, err := sshExec(t, s, s.ClientKeyPath(), "git-upload-pack '/docs.git'")
	if err != nil {
		t.Fatalf("exec: %v", err)
	}
	if !strings.Contains(out, r.Head(t)+" HEAD") {
		t.Fatalf("advertisement lacks HEAD %s:\n%q", r.Head(t), out)
	}
}

func TestSSHServerFindsNonBareRepositoryUnderRoot(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "plain")
	Git(t, root, "init", "-q", "-b", "main", dir)
	Git(t, dir, "commit", "-q", "--allow-empty", "-m", "x")
	s := NewSSHServer(t, root)
	out, err := sshExec(t, s, s.ClientKeyPath(), "git-upload-pack '/plain.git'")
	if err != nil || !strings.Contains(out, "refs/heads/main") {
		t.Fatalf("non-bare repo not served: %v %q", err, out)
	}
}

func TestSSHServerRefusesUnknownKey(t *testing.T) {
	r := NewRepo(t, map[string]string{"a.md": "a"})
	s := NewSSHServer(t, t.TempDir())
	s.Add(t, "docs", r)
	_, err := sshExec(t, s, WriteSSHKey(t), "git-upload-pack '/docs.git'")
	if err == nil || !strings.Contains(err.Error(), "unable to authenticate") {
		t.Fatalf("unknown key: err = %v, want an authentication failure", err)
	}
}

func TestSSHServerRefusesOtherCommandsAndMissingRepos(t *testing.T) {
	s := NewSSHServer(t, t.TempDir())
	_, err := sshExec(t, s, s.ClientKeyPath(), "git-receive-pack '/docs.git'")
	if err == nil || !strings.Contains(err.Error(), "only git-upload-pack") {
		t.Fatalf("receive-pack: err = %v", err)
	}
	_, err = sshExec(t, s, s.ClientKeyPath(), "git-upload-pack '/missing.git'")
	if err == nil || !strings.Contains(err.Error(), "does not appear to be a git repository") {
		t.Fatalf("missing repo: err = %v", err)
	}
}

func TestHostKeyLineVerifiesServer(t *testing.T) {
	s := NewSSHServer(t, t.TempDir())
	file := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(file, []byte(s.HostKeyLine()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cb, err := knownhosts.New(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := cb(s.listener.Addr().String(), s.listener.Addr(), s.hostKey); err != nil {
		t.Fatalf("host key line does not match the server: %v", err)
	}
	other, _ := newSigner(t)
	if err := cb(s.listener.Addr().String(), s.listener.Addr(), other.PublicKey()); err == nil {
		t.Fatal("a different host key was accepted")
	}
}

func TestShellUnquote(t *testing.T) {
	cases := map[string]string{
		`'/org/docs.git'`: "/org/docs.git",
		`'/it'\''s.git'`:  "/it's.git",
		`'/bang'\!'.git'`: "/bang!.git",
		`/unquoted.git`:   "/unquoted.git",
		`'/a b/c.git'`:    "/a b/c.git",
		`'/tail'\'''\'''`: "/tail''",
	}
	for in, want := range cases {
		got, err := shellUnquote(in)
		if err != nil || got != want {
			t.Errorf("shellUnquote(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{`'open`, `'a'b'`} {
		if _, err := shellUnquote(bad); err == nil {
			t.Errorf("shellUnquote(%s) accepted malformed input", bad)
		}
	}
}

// sshExec runs command on s with the key at keyPath and returns stdout; a
// non-zero exit status becomes an error carrying stderr.
func sshExec(t *testing.T, s *SSHServer, keyPath, command string) (string, error) {
	t.Helper()
	signer, err := ssh.ParsePrivateKey(mustRead(t, keyPath))
	if err != nil {
		t.Fatal(err)
	}
	client, err := ssh.Dial("tcp", s.listener.Addr().String(), &ssh.ClientConfig{
		User:            "git",
		Auth:            []ssh.AuthMethod{ssh.PublicKeys(signer)},
		HostKeyCallback: ssh.FixedHostKey(s.hostKey),
	})
	if err != nil {
		return "", err
	}
	defer client.Close()
	session, err := client.NewSession()
	if err != nil {
		return "", err
	}
	defer session.Close()
	var stdout, stderr bytes.Buffer
	session.Stdout, session.Stderr = &stdout, &stderr
	// An empty stdin makes upload-pack stop after advertising its refs.
	session.Stdin = strings.NewReader("0000")
	if err := session.Run(command); err != nil {
		return stdout.String(), &execError{err: err, stderr: stderr.String()}
	}
	return stdout.String(), nil
}

type execError struct {
	err    error
	stderr string
}

func (e *execError) Error() string { return e.err.Error() + ": " + e.stderr }
