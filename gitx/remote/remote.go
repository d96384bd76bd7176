// Package remote parses the Git remote addresses docweave accepts for a
// repository — https:// and http:// URLs (with or without ".git",
// credentials or a port), ssh:// and git:// URLs, Git's scp-like
// [user@]host:path, file:// URLs and local paths — into one Address, so the
// configuration gate, forge naming, edit links and webhook matching read
// an address by the same grammar instead of one regular expression each.
package remote

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Form is how an address is written; it decides how the rest is read.
type Form int

// The forms of a remote address.
const (
	// Path is a local path, absolute or relative (/srv/git/docs, C:\docs).
	Path Form = iota
	// URL is scheme://[userinfo@]host[:port]/path, including file://.
	URL
	// SCP is Git's scp-like SSH address, [user@]host:path.
	SCP
)

// Address is a parsed remote address. It keeps no password: an address
// can be printed or logged without leaking one (see Redacted for a form
// that can be shown).
type Address struct {
	Form Form
	// Scheme is the URL's scheme in lower case (https, http, ssh, git,
	// file or any other a URL names); "ssh" for the scp-like form; "" for
	// a local path.
	Scheme string
	// User is the SSH login name (git in git@host:org/repo), kept because
	// it is no secret; "" when the address has none or when its user info
	// is credentials (any user info of a non-SSH URL, or one with a
	// password).
	User string
	// Credentials is true when the address carried user info that User
	// does not repeat: a password, or a user name of an HTTP URL (tokens
	// are often passed as https://<token>@host/...).
	Credentials bool
	// Host is the host name as written, without brackets for IPv6; ""
	// for a local path and for file:/// URLs.
	Host string
	// Port is the URL's port as written, "" when none.
	Port string
	// Path is the repository's path as written: the URL's path (decoded,
	// with its leading slash), what follows the colon of an scp-like
	// address, or the whole local path.
	Path string
}

// ErrEmpty is returned for an address that is empty.
var ErrEmpty = errors.New("empty remote address")

// Parse reads raw as a remote address, the way Git does on a Unix system:
// scheme:// starts a URL; else [user@]host:path where no '/' comes before
// the first ':' is scp-like, its host a name (letters, digits, '.', '_',
// '-', not starting with '-') or a bracketed IPv6 address and its path not
// empty nor starting with '\'; anything else is a local path. raw is read
// as written: callers trim it when they want to. A URL that net/url cannot
// parse is an error, returned with the Address's Form and Scheme set so a
// caller can say which scheme it names.
func Parse(raw string) (Address, error) {
	if raw == "" {
		return Address{}, ErrEmpty
	}
	if scheme, _, ok := strings.Cut(raw, "://"); ok && validScheme(scheme) {
		return parseURL(raw, strings.ToLower(scheme))
	}
	if a, ok := parseSCP(raw); ok {
		return a, nil
	}
	return Address{Form: Path, Path: raw}, nil
}

// validScheme reports whether s is a URL scheme: a letter, then letters,
// digits, '+', '-' or '.' (RFC 3986). Only then does "://" start a URL:
// "0/://x@y" is a relative path.
func validScheme(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isLetter(c) && !isDigit(c) && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

// parseURL reads a scheme:// address with net/url.
func parseURL(raw, scheme string) (Address, error) {
	a := Address{Form: URL, Scheme: scheme}
	u, err := url.Parse(raw)
	if err != nil {
		return a, fmt.Errorf("parse remote URL: %w", errors.Unwrap(err))
	}
	a.Host, a.Port, a.Path = u.Hostname(), u.Port(), u.Path
	if u.User != nil {
		_, hasPassword := u.User.Password()
		if scheme == "ssh" && !hasPassword {
			a.User = u.User.Username()
		} else {
			a.Credentials = true
		}
	}
	return a, nil
}

// parseSCP reads [user@]host:path, or reports false when raw is not in
// that form. The user part, when there is one, ends at the first '@' and
// holds no '/'; the address is also tried without one, so the '@' of
// host:org@x/repo belongs to the path. A user part with a ':' is
// user:password, credentials.
func parseSCP(raw string) (Address, bool) {
	if at := strings.IndexByte(raw, '@'); at > 0 && !strings.ContainsAny(raw[:at], "/ \t\r\n") {
		if a, ok := scpHostPath(raw[at+1:]); ok {
			if user := raw[:at]; strings.Contains(user, ":") {
				a.Credentials = true
			} else {
				a.User = user
			}
			return a, true
		}
	}
	return scpHostPath(raw)
}

// scpHostPath reads host:path, the host a name or a bracketed IPv6
// address, the path not empty nor starting with '\' (C:\docs is a
// Windows path).
func scpHostPath(s string) (Address, bool) {
	var host, path string
	if rest, ok := strings.CutPrefix(s, "["); ok {
		ip, after, ok := strings.Cut(rest, "]")
		if !ok || !validIPv6(ip) || !strings.HasPrefix(after, ":") {
			return Address{}, false
		}
		host, path = ip, after[1:]
	} else {
		var ok bool
		if host, path, ok = strings.Cut(s, ":"); !ok || !validHostName(host) {
			return Address{}, false
		}
	}
	if path == "" || path[0] == '\\' {
		return Address{}, false
	}
	return Address{Form: SCP, Scheme: "ssh", Host: host, Path: path}, true
}

// validHostName reports whether h is a host name an scp-like address may
// name: letters, digits, '.', '_' and '-', starting with a letter, digit
// or '_' (never '-', which ssh would read as an option).
func validHostName(h string) bool {
	if h == "" || h[0] == '-' || h[0] == '.' {
		return false
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; !isLetter(c) && !isDigit(c) && c != '.' && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// validIPv6 reports whether s is an IPv6 address, the only kind written
// in brackets.
func validIPv6(s string) bool {
	return strings.Contains(s, ":") && net.ParseIP(s) != nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// Local reports whether the address names a repository on this machine: a
// local path or a file:// URL.
func (a Address) Local() bool {
	return a.Form == Path || a.Scheme == "file"
}

// HostPort is the host with the port when the address names one, IPv6
// hosts in brackets (git.example.com:8443, [::1]:22).
func (a Address) HostPort() string {
	switch {
	case a.Port != "":
		return net.JoinHostPort(a.Host, a.Port)
	case strings.Contains(a.Host, ":"):
		return "[" + a.Host + "]"
	}
	return a.Host
}

// Repo is the repository's path on its host without surrounding slashes
// or ".git": org/repo, or group/sub/project on GitLab's nested groups.
func (a Address) Repo() string {
	return strings.TrimSuffix(strings.Trim(a.Path, "/"), ".git")
}

// Owner is the part of Repo before its last segment: the user, the
// organisation or the (nested) group; "" when Repo has one segment.
func (a Address) Owner() string {
	owner, _, _ := cutLast(a.Repo())
	return owner
}

// Name is the last segment of Repo, the repository's own name.
func (a Address) Name() string {
	_, name, _ := cutLast(a.Repo())
	return name
}

// cutLast splits p at its last '/'.
func cutLast(p string) (before, after string, found bool) {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i], p[i+1:], true
	}
	return "", p, false
}

// Redacted is the address in a form that can be logged or shown: a URL
// is scheme://[user@]host[:port]/path with any credentials replaced by
// "***" and without query or fragment (a token may ride in them); an
// scp-like address keeps its SSH user; a local path is returned as is.
func (a Address) Redacted() string {
	switch a.Form {
	case URL:
		user := ""
		switch {
		case a.Credentials:
			user = "***@"
		case a.User != "":
			user = url.User(a.User).String() + "@"
		}
		return a.Scheme + "://" + user + a.HostPort() + (&url.URL{Path: a.Path}).EscapedPath()
	case SCP:
		s := a.HostPort() + ":" + a.Path
		if a.User != "" {
			s = a.User + "@" + s
		}
		if a.Credentials {
			s = "***@" + s
		}
		return s
	}
	return a.Path
}

// Key is the form in which two spellings of the same repository compare
// equal, used to match a forge's webhook to configured repositories:
// "host/path" in lower case, without scheme, port, credentials, query,
// ".git", surrounding slashes or repeated slashes, '\' read as '/'. So
// https://github.com/Org/Repo.git, git@github.com:org/repo and
// ssh://git@github.com:22/org/repo/ share the key github.com/org/repo.
// The port is dropped because a forge serves one repository over HTTPS
// and SSH on different ports; paths compare regardless of case because
// the major forges treat them so. A local path keeps an empty host
// (/srv/git/docs). "" when the address names neither host nor path.
func (a Address) Key() string {
	p := strings.Trim(strings.ReplaceAll(a.Path, "\\", "/"), "/")
	p = strings.Trim(strings.TrimSuffix(strings.ToLower(p), ".git"), "/")
	host := strings.ToLower(a.Host)
	if host == "" && p == "" {
		return ""
	}
	for strings.Contains(p, "//") {
		p = strings.ReplaceAll(p, "//", "/")
	}
	return host + "/" + p
}
