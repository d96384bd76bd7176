package gitx

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/gittest"
)

func TestNewRemoteToken(t *testing.T) {
	rem, err := newRemote("https://forge.test/org/docs.git", config.Auth{Type: config.AuthToken, Token: "tok-1234"}, sshPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	basic, ok := rem.auth.(*githttp.BasicAuth)
	if !ok || basic.Username != TokenUser || basic.Password != "tok-1234" {
		t.Fatalf("token auth = %#v", rem.auth)
	}
	if basic.String() == "" || strings.Contains(basic.String(), "tok-1234") {
		t.Fatalf("auth String() leaks the token: %q", basic.String())
	}
}

func TestNewRemoteMovesURLCredentialsIntoAuth(t *testing.T) {
	rem, err := newRemote("https://bob:pw-5678@forge.test/docs.git", config.Auth{}, sshPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	if rem.url != "https://forge.test/docs.git" {
		t.Fatalf("url handed to go-git = %q", rem.url)
	}
	basic, ok := rem.auth.(*githttp.BasicAuth)
	if !ok || basic.Username != "bob" || basic.Password != "pw-5678" {
		t.Fatalf("auth = %#v", rem.auth)
	}
	// Configured auth wins over URL credentials, which are still stripped.
	rem, err = newRemote("https://bob:pw-5678@forge.test/docs.git", config.Auth{Type: config.AuthToken, Token: "tok-9999"}, sshPolicy{})
	if err != nil || rem.url != "https://forge.test/docs.git" || rem.auth.(*githttp.BasicAuth).Password != "tok-9999" {
		t.Fatalf("configured auth: %+v %v", rem, err)
	}
}

func TestNewRemoteSSHKeyAndHostPolicy(t *testing.T) {
	key := gittest.WriteSSHKey(t)
	kh := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(kh, []byte("[127.0.0.1]:2222 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHh5x1rDZsqyN4kCrN3gYo6eLJd3Ez1B8GqoQf3iBq3y\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rem, err := newRemote("ssh://deploy@127.0.0.1:2222/docs.git", config.Auth{Type: config.AuthSSH, KeyPath: key}, sshPolicy{knownHostsPath: kh})
	if err != nil {
		t.Fatal(err)
	}
	wrapped, ok := rem.auth.(*sshDialTimeout)
	if !ok {
		t.Fatalf("ssh auth = %#v", rem.auth)
	}
	keys, ok := wrapped.AuthMethod.(*gitssh.PublicKeys)
	if !ok || keys.User != "deploy" || keys.HostKeyCallback == nil {
		t.Fatalf("ssh auth = %#v", wrapped.AuthMethod)
	}
	cfg, err := wrapped.ClientConfig()
	if err != nil || cfg.Timeout != defaultSSHDial || cfg.User != "deploy" {
		t.Fatalf("client config: timeout %v user %q err %v", cfg.Timeout, cfg.User, err)
	}
	if len(keys.HostKeyAlgorithms) == 0 {
		t.Fatal("host key algorithms not taken from known_hosts")
	}
	// scp-like URLs default to the user in the URL as well.
	rem, err = newRemote("git@127.0.0.1:docs.git", config.Auth{Type: config.AuthSSH, KeyPath: key}, sshPolicy{insecure: true})
	if err != nil || rem.auth.(*sshDialTimeout).AuthMethod.(*gitssh.PublicKeys).User != "git" {
		t.Fatalf("scp-like: %+v %v", rem, err)
	}
	rem, err = newRemote("ssh://git@127.0.0.1:22/a.git", config.Auth{Type: config.AuthSSH, KeyPath: key}, sshPolicy{insecure: true, dialTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if cfg, _ := rem.auth.(*sshDialTimeout).ClientConfig(); cfg.Timeout != 5*time.Second {
		t.Fatalf("attempt timeout not used as SSH dial timeout: %v", cfg.Timeout)
	}
}

func TestNewRemoteRejectsUnreadableKey(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "id")
	if err := os.WriteFile(bad, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := newRemote("ssh://git@127.0.0.1:22/a.git", config.Auth{Type: config.AuthSSH, KeyPath: bad}, sshPolicy{insecure: true})
	if err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("unusable key: %v", err)
	}
}
