package gitx

import (
	"net/url"
	"regexp"
	"strings"
)

// redacted replaces every secret in URLs and error text.
const redacted = "REDACTED"

// RedactURL returns u with credentials removed so it can be logged or put in
// an error: a password is replaced, a lone HTTP(S) user name is replaced too
// (tokens are often passed that way, "https://<token>@host/…"). SSH user names such as "git@" carry no secret and
// are kept. Query values whose key suggests a credential (token, key,
// secret, password, auth, signature, credential) are replaced. A string that does not parse as a URL gets the userinfo of
// anything that looks like "scheme://user@" replaced.
func RedactURL(u string) string {
	if !strings.Contains(u, "://") {
		return u // scp-like "git@host:path" or a local path: nothing secret
	}
	parsed, err := url.Parse(u)
	if err != nil {
		return userinfoPattern.ReplaceAllString(u, "${1}"+redacted+"@")
	}
	if parsed.User != nil {
		name := parsed.User.Username()
		_, hasPassword := parsed.User.Password()
		switch {
		case hasPassword:
			parsed.User = url.UserPassword(name, redacted)
		case isHTTP(parsed.Scheme):
			parsed.User = url.User(redacted)
		}
	}
	if parsed.RawQuery != "" {
		q := parsed.Query()
		changed := false
		for key := range q {
			if sensitiveQueryKey(key) {
				q[key] = []string{redacted}
				changed = true
			}
		}
		if changed {
			parsed.RawQuery = q.Encode()
		}
	}
	return parsed.String()
}

// userinfoPattern matches "scheme://userinfo@" for text that is not a URL.
var userinfoPattern = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://)[^/@\s]+@`)

// urlPattern finds URLs embedded in free text such as error messages.
var urlPattern = regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://[^\s"'<>]+`)

// minSecretLen is the shortest secret replaced in free text. Shorter values
// cannot be told apart from ordinary letters (replacing a one-letter password
// everywhere would shred the message) and are not credible credentials.
const minSecretLen = 4

// redactText removes secrets from free text: each URL in it goes through
// RedactURL and every known secret value (of minSecretLen or more) is
// replaced, wherever it appears.
func redactText(text string, secrets ...string) string {
	for _, s := range secrets {
		if len(s) >= minSecretLen {
			text = strings.ReplaceAll(text, s, redacted)
		}
	}
	return urlPattern.ReplaceAllStringFunc(text, RedactURL)
}

// sensitiveQueryKey reports whether a query parameter likely holds a
// credential (private_token, access_token, api_key, X-Amz-Signature, …).
func sensitiveQueryKey(key string) bool {
	k := strings.ToLower(key)
	for _, s := range []string{"token", "key", "secret", "pass", "auth", "sig", "cred"} {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}

func isHTTP(scheme string) bool {
	scheme = strings.ToLower(scheme)
	return scheme == "http" || scheme == "https"
}
