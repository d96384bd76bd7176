package gitx

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"
	"golang.org/x/crypto/ssh"

	"github.com/docweave/docweave/config"
)

// TokenUser is the user name sent with auth.type=token when auth.username is
// empty. Tokens travel as HTTP basic authentication with the token as the
// password, which GitHub, GitLab, Gitea/Forgejo and Azure DevOps all accept
// (they ignore the user name for personal access tokens; GitHub App tokens
// need exactly this name). Set auth.username for forges that want another
// fixed name, e.g. "oauth2" (GitLab OAuth tokens) or "x-token-auth"
// (Bitbucket).
const TokenUser = "x-access-token"

// remote is a clone URL made safe to hand to go-git: credentials that were
// embedded in it moved into the auth method, so they can never surface in
// go-git's error messages, and the secrets to scrub from any other text.
type remote struct {
	url     string // without userinfo for HTTP(S)
	auth    transport.AuthMethod
	secrets []string
}

// sshPolicy is how SSH connections are checked and bounded.
type sshPolicy struct {
	knownHostsPath string
	insecure       bool
	// dialTimeout bounds the TCP connect of an SSH connection (go-git does
	// not pass the context to its SSH dialer); 0 means defaultSSHDial.
	dialTimeout time.Duration
}

// defaultSSHDial bounds an SSH TCP connect when the request sets no
// attempt timeout, so a firewall that drops packets fails in reasonable
// time instead of after the kernel's SYN retries.
const defaultSSHDial = 30 * time.Second

// newRemote validates rawURL against auth and builds the go-git auth method.
func newRemote(rawURL string, auth config.Auth, hosts sshPolicy) (*remote, error) {
	if strings.TrimSpace(rawURL) == "" {
		return nil, errors.New("repository url is empty")
	}
	ep, err := transport.NewEndpoint(rawURL)
	if err != nil {
		return nil, fmt.Errorf("repository url %s: %w", RedactURL(rawURL), err)
	}
	r := &remote{url: rawURL, secrets: []string{auth.Token, auth.Password}}

	var urlUser, urlPass string
	if isHTTP(ep.Protocol) {
		r.url, urlUser, urlPass = stripCredentials(rawURL)
		r.secrets = append(r.secrets, urlUser, urlPass)
	}

	switch auth.Type {
	case config.AuthNone:
		if urlUser != "" || urlPass != "" {
			r.auth = &githttp.BasicAuth{Username: urlUser, Password: urlPass}
		}
	case config.AuthToken, config.AuthBasic:
		if !isHTTP(ep.Protocol) {
			return nil, &authSetupError{fmt.Errorf("auth.type %q needs an http(s) url, got a %s url", auth.Type, ep.Protocol)}
		}
		r.auth, err = httpAuth(auth)
	case config.AuthSSH:
		if ep.Protocol != "ssh" {
			return nil, &authSetupError{fmt.Errorf("auth.type \"ssh\" needs an ssh url (ssh://… or git@host:path), got a %s url", ep.Protocol)}
		}
		r.auth, err = sshAuth(ep, auth, hosts)
	default:
		return nil, &authSetupError{fmt.Errorf("auth.type %q is not one of token, basic, ssh", auth.Type)}
	}
	if err != nil {
		return nil, &authSetupError{err}
	}
	if basic, ok := r.auth.(*githttp.BasicAuth); ok {
		// What the Authorization header carries, base64-encoded: a server
		// that echoes the header shows the credentials only that way.
		r.secrets = append(r.secrets, basic.Username+":"+basic.Password)
	}
	if r.auth == nil && ep.Protocol == "ssh" {
		// No key configured: fall back to the SSH agent, but with the host
		// key policy of the request.
		r.auth, err = sshAgentAuth(ep, hosts)
		if err != nil {
			return nil, &authSetupError{err}
		}
	}
	return r, nil
}

// authSetupError marks a request whose credentials or host key settings
// cannot be used, so it is reported as CLONE_AUTH rather than CLONE_FAILED.
type authSetupError struct{ err error }

func (e *authSetupError) Error() string { return e.err.Error() }
func (e *authSetupError) Unwrap() error { return e.err }

func httpAuth(auth config.Auth) (transport.AuthMethod, error) {
	if auth.Type == config.AuthToken {
		if auth.Token == "" {
			return nil, errors.New("auth.token is empty; auth.type \"token\" needs a token")
		}
		user := auth.Username
		if user == "" {
			user = TokenUser
		}
		return &githttp.BasicAuth{Username: user, Password: auth.Token}, nil
	}
	if auth.Username == "" || auth.Password == "" {
		return nil, errors.New("auth.username and auth.password are both required for auth.type \"basic\"")
	}
	return &githttp.BasicAuth{Username: auth.Username, Password: auth.Password}, nil
}

func sshAuth(ep *transport.Endpoint, auth config.Auth, hosts sshPolicy) (transport.AuthMethod, error) {
	if auth.KeyPath == "" {
		return nil, errors.New("auth.key_path is empty; auth.type \"ssh\" needs the path of a private key")
	}
	pem, err := os.ReadFile(auth.KeyPath)
	if err != nil {
		return nil, fmt.Errorf("auth.key_path %s: %w", auth.KeyPath, err)
	}
	keys, err := gitssh.NewPublicKeys(sshUser(ep), pem, "")
	if err != nil {
		return nil, fmt.Errorf("auth.key_path %s: not a usable unencrypted private key: %w", auth.KeyPath, err)
	}
	if err := hosts.apply(&keys.HostKeyCallbackHelper, ep); err != nil {
		return nil, err
	}
	return &sshDialTimeout{AuthMethod: keys, timeout: hosts.dial()}, nil
}

func sshAgentAuth(ep *transport.Endpoint, hosts sshPolicy) (transport.AuthMethod, error) {
	agent, err := gitssh.NewSSHAgentAuth(sshUser(ep))
	if err != nil {
		return nil, fmt.Errorf("ssh url without auth.key_path and no usable SSH agent: %w", err)
	}
	if err := hosts.apply(&agent.HostKeyCallbackHelper, ep); err != nil {
		return nil, err
	}
	return &sshDialTimeout{AuthMethod: agent, timeout: hosts.dial()}, nil
}

// apply sets the host key callback: accept anything when insecure, the
// given known_hosts file when set, otherwise go-git's default — the files in
// $SSH_KNOWN_HOSTS, else ~/.ssh/known_hosts and /etc/ssh/ssh_known_hosts.
// The host key algorithms are taken from the file, so a host listed only
// with an ed25519 key is not offered an RSA key it cannot verify.
func (p sshPolicy) apply(h *gitssh.HostKeyCallbackHelper, ep *transport.Endpoint) error {
	if p.insecure {
		h.HostKeyCallback = ssh.InsecureIgnoreHostKey() //nolint:gosec // explicit opt-in by the request
		return nil
	}
	var files []string
	if p.knownHostsPath != "" {
		if _, err := os.Stat(p.knownHostsPath); err != nil {
			return fmt.Errorf("known_hosts file %s: %w", p.knownHostsPath, err)
		}
		files = []string{p.knownHostsPath}
	}
	db, err := gitssh.NewKnownHostsDb(files...)
	if err != nil {
		return fmt.Errorf("ssh host key verification needs a known_hosts file (set KnownHostsPath or SSH_KNOWN_HOSTS): %w", err)
	}
	port := ep.Port
	if port <= 0 {
		port = 22
	}
	h.HostKeyCallback = db.HostKeyCallback()
	h.HostKeyAlgorithms = db.HostKeyAlgorithms(net.JoinHostPort(ep.Host, strconv.Itoa(port)))
	return nil
}

func (p sshPolicy) dial() time.Duration {
	if p.dialTimeout > 0 {
		return p.dialTimeout
	}
	return defaultSSHDial
}

// sshDialTimeout adds a connect timeout to an SSH auth method's client
// configuration.
type sshDialTimeout struct {
	gitssh.AuthMethod
	timeout time.Duration
}

// ClientConfig is the wrapped method's configuration with the timeout set.
func (a *sshDialTimeout) ClientConfig() (*ssh.ClientConfig, error) {
	cfg, err := a.AuthMethod.ClientConfig()
	if err != nil {
		return nil, err
	}
	cfg.Timeout = a.timeout
	return cfg, nil
}

func sshUser(ep *transport.Endpoint) string {
	if ep.User != "" {
		return ep.User
	}
	return "git"
}

// stripCredentials removes userinfo from an HTTP(S) URL and returns it.
func stripCredentials(raw string) (clean, user, pass string) {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw, "", ""
	}
	user = u.User.Username()
	pass, _ = u.User.Password()
	u.User = nil
	return u.String(), user, pass
}
