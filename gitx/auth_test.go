package gitx

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/gittest"
)

func TestNewRemoteToken(t *testing.T) {
	rem, err := newRemote("https://forge.test/org/docs.git", config.Auth{Type: config.AuthToken, Token: "tok-1234"}, hostKeyPolicy{})
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
	rem, err := newRemote("https://bob:pw-5678@forge.test/docs.git", config.Auth{}, hostKeyPolicy{})
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
	rem, err = newRemote("https://bob:pw-5678@forge.test/docs.git", config.Auth{Type: config.AuthToken, Token: "tok-9999"}, hostKeyPolicy{})
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
	rem, err := newRemote("ssh://deploy@127.0.0.1:2222/docs.git", config.Auth{Type: config.AuthSSH, KeyPath: key}, hostKeyPolicy{knownHostsPath: kh})
	if err != nil {
		t.Fatal(err)
	}
	keys, ok := rem.auth.(*gitssh.PublicKeys)
	if !ok || keys.User != "deploy" || keys.HostKeyCallback == nil {
		t.Fatalf("ssh auth = %#v", rem.auth)
	}
	if len(keys.HostKeyAlgorithms) == 0 {
		t.Fatal("host key algorithms not taken from known_hosts")
	}
	// scp-like URLs default to the user in the URL as well.
	rem, err = newRemote("git@127.0.0.1:docs.git", config.Auth{Type: config.AuthSSH, KeyPath: key}, hostKeyPolicy{insecure: true})
	if err != nil || rem.auth.(*gitssh.PublicKeys).User != "git" {
		t.Fatalf("scp-like: %+v %v", rem, err)
	}
}

func TestNewRemoteRejectsUnreadableKey(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "id")
	if err := os.WriteFile(bad, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := newRemote("ssh://git@127.0.0.1:22/a.git", config.Auth{Type: config.AuthSSH, KeyPath: bad}, hostKeyPolicy{insecure: true})
	if err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("unusable key: %v", err)
	}
}
