package gittest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// SSHServer is an SSH server on 127.0.0.1 and a random port that accepts
// exactly one client public key and serves `git-upload-pack '<path>'` exec
// requests for repositories under its root, the way a forge's SSH endpoint
// does. Fetching is all it does: pushes and shells are refused.
type SSHServer struct {
	root          string
	gitPath       string
	listener      net.Listener
	config        *ssh.ServerConfig
	hostKey       ssh.PublicKey
	clientKey     ssh.PublicKey
	clientKeyPath string

	mu    sync.Mutex
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup
}

// NewSSHServer starts a server for the repositories under root. It generates
// an ed25519 host key and an ed25519 client key pair, writes the client's
// private key (OpenSSH format, mode 0600) to a temporary file, and is closed
// by t.Cleanup. A repository at root/org/docs.git is reached as
// URL("org/docs"); a non-bare repository at root/org/docs is found too.
func NewSSHServer(t testing.TB, root string) *SSHServer {
	t.Helper()
	requireExecProgram(t, "git-upload-pack")
	s := &SSHServer{root: root, gitPath: RequireGit(t), conns: map[net.Conn]struct{}{}}

	hostSigner, _ := newSigner(t)
	s.hostKey = hostSigner.PublicKey()
	s.clientKeyPath = WriteSSHKey(t)
	clientSigner, err := ssh.ParsePrivateKey(mustRead(t, s.clientKeyPath))
	if err != nil {
		t.Fatalf("gittest: parse generated client key: %v", err)
	}
	s.clientKey = clientSigner.PublicKey()

	s.config = &ssh.ServerConfig{
		PublicKeyCallback: func(_ ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
			if bytes.Equal(key.Marshal(), s.clientKey.Marshal()) {
				return &ssh.Permissions{}, nil
			}
			return nil, errors.New("public key not authorized")
		},
	}
	s.config.AddHostKey(hostSigner)

	s.listener, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("gittest: listen for ssh: %v", err)
	}
	s.wg.Add(1)
	go s.acceptLoop()
	t.Cleanup(s.close)
	return s
}

// Add exposes r under name by linking root/<name>.git to r's .git directory
// (so later commits in r are served at once) and returns URL(name).
func (s *SSHServer) Add(t testing.TB, name string, r *Repo) string {
	t.Helper()
	linkRepo(t, s.root, name, r)
	return s.URL(name)
}

// URL is the clone URL ssh://git@127.0.0.1:port/<name>.git.
func (s *SSHServer) URL(name string) string {
	return fmt.Sprintf("ssh://git@%s/%s.git", s.listener.Addr().String(), strings.Trim(name, "/"))
}

// ClientKeyPath is the file holding the private key the server accepts.
func (s *SSHServer) ClientKeyPath() string { return s.clientKeyPath }

// HostKeyLine is a known_hosts line ("[127.0.0.1]:port ssh-ed25519 AAAA…")
// that makes a strict client trust this server.
func (s *SSHServer) HostKeyLine() string {
	return knownhosts.Line([]string{knownhosts.Normalize(s.listener.Addr().String())}, s.hostKey)
}

// WriteSSHKey generates a fresh ed25519 private key, writes it in OpenSSH
// format with mode 0600 to a temporary file and returns the path. Tests use
// it for a key that a server does not know.
func WriteSSHKey(t testing.TB) string {
	t.Helper()
	_, priv := newSigner(t)
	block, err := ssh.MarshalPrivateKey(priv, "docweave gittest")
	if err != nil {
		t.Fatalf("gittest: marshal ssh key: %v", err)
	}
	path := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatalf("gittest: write ssh key: %v", err)
	}
	return path
}

func newSigner(t testing.TB) (ssh.Signer, ed25519.PrivateKey) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatalf("gittest: generate ed25519 key: %v", err)
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatalf("gittest: ssh signer: %v", err)
	}
	return signer, priv
}

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("gittest: read %s: %v", path, err)
	}
	return b
}

func (s *SSHServer) close() {
	_ = s.listener.Close()
	s.mu.Lock()
	for c := range s.conns {
		_ = c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

func (s *SSHServer) acceptLoop() {
	defer s.wg.Done()
	for {
		conn, err := s.listener.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.conns[conn] = struct{}{}
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.serveConn(conn)
			s.mu.Lock()
			delete(s.conns, conn)
			s.mu.Unlock()
		}()
	}
}

func (s *SSHServer) serveConn(conn net.Conn) {
	defer conn.Close()
	sconn, chans, reqs, err := ssh.NewServerConn(conn, s.config)
	if err != nil {
		return // handshake or authentication refused
	}
	defer sconn.Close()
	go ssh.DiscardRequests(reqs)
	var sessions sync.WaitGroup
	for nc := range chans {
		if nc.ChannelType() != "session" {
			_ = nc.Reject(ssh.UnknownChannelType, "only session channels are served")
			continue
		}
		ch, requests, err := nc.Accept()
		if err != nil {
			continue
		}
		sessions.Add(1)
		go func() {
			defer sessions.Done()
			s.serveSession(ch, requests)
		}()
	}
	sessions.Wait()
}

// serveSession handles env and exec requests of one session channel.
func (s *SSHServer) serveSession(ch ssh.Channel, requests <-chan *ssh.Request) {
	defer ch.Close()
	var protocol string
	for req := range requests {
		switch req.Type {
		case "env":
			var kv struct{ Name, Value string }
			if ssh.Unmarshal(req.Payload, &kv) == nil && kv.Name == "GIT_PROTOCOL" {
				protocol = kv.Value
			}
			_ = req.Reply(true, nil)
		case "exec":
			var cmd struct{ Command string }
			if err := ssh.Unmarshal(req.Payload, &cmd); err != nil {
				_ = req.Reply(false, nil)
				continue
			}
			_ = req.Reply(true, nil)
			status := s.runUploadPack(ch, cmd.Command, protocol)
			_, _ = ch.SendRequest("exit-status", false, binary.BigEndian.AppendUint32(nil, status))
			return
		default:
			_ = req.Reply(false, nil)
		}
	}
}

// runUploadPack runs git-upload-pack for the repository named in command and
// returns its exit status; problems are reported on the channel's stderr the
// way a forge reports them.
func (s *SSHServer) runUploadPack(ch ssh.Channel, command, protocol string) uint32 {
	repoPath, err := s.resolve(command)
	if err != nil {
		fmt.Fprintf(ch.Stderr(), "fatal: %v\n", err)
		return 128
	}
	cmd := exec.Command(s.gitPath, "upload-pack", repoPath)
	cmd.Env = GitEnv()
	if protocol != "" {
		cmd.Env = append(cmd.Env, "GIT_PROTOCOL="+protocol)
	}
	cmd.Stdout = ch
	cmd.Stderr = ch.Stderr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		fmt.Fprintf(ch.Stderr(), "fatal: %v\n", err)
		return 128
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(ch.Stderr(), "fatal: start upload-pack: %v\n", err)
		return 128
	}
	// Not waited for: the copy ends when the client closes its side or the
	// channel is closed after the exit status is sent.
	go func() {
		_, _ = io.Copy(stdin, ch)
		_ = stdin.Close()
	}()
	if err := cmd.Wait(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return uint32(exit.ExitCode())
		}
		return 128
	}
	return 0
}

// resolve turns "git-upload-pack '/org/docs.git'" into a path under root.
func (s *SSHServer) resolve(command string) (string, error) {
	var quoted string
	switch {
	case strings.HasPrefix(command, "git-upload-pack "):
		quoted = strings.TrimPrefix(command, "git-upload-pack ")
	case strings.HasPrefix(command, "git upload-pack "):
		quoted = strings.TrimPrefix(command, "git upload-pack ")
	default:
		return "", fmt.Errorf("only git-upload-pack is served, not %q", command)
	}
	path, err := shellUnquote(strings.TrimSpace(quoted))
	if err != nil {
		return "", err
	}
	rel := strings.TrimPrefix(filepath.Clean("/"+path), "/")
	candidate := filepath.Join(s.root, filepath.FromSlash(rel))
	if _, err := os.Stat(candidate); err == nil {
		return candidate, nil
	}
	if trimmed := strings.TrimSuffix(candidate, ".git"); trimmed != candidate {
		if _, err := os.Stat(trimmed); err == nil {
			return trimmed, nil
		}
	}
	return "", fmt.Errorf("'%s' does not appear to be a git repository", path)
}

// shellUnquote undoes Git's single-quote quoting, in which a quote inside
// the path is written as quote, backslash, quote, quote; an unquoted word is
// returned as is.
func shellUnquote(s string) (string, error) {
	if !strings.HasPrefix(s, "'") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\'' {
			return "", fmt.Errorf("malformed quoted path %q", s)
		}
		end := strings.IndexByte(s[i+1:], '\'')
		if end < 0 {
			return "", fmt.Errorf("unterminated quote in %q", s)
		}
		b.WriteString(s[i+1 : i+1+end])
		i += end + 2
		if i < len(s) {
			if s[i] != '\\' || i+1 >= len(s) {
				return "", fmt.Errorf("malformed quoted path %q", s)
			}
			b.WriteByte(s[i+1])
			i += 2
		}
	}
	return b.String(), nil
}
