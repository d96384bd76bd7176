package gitx

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"slices"
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

// redactText removes secrets from free text: every known secret (of
// minSecretLen or more) is replaced wherever it appears — as it is,
// percent-encoded, or inside base64 (a server that echoes an
// "Authorization: Basic …" header in its error text shows the credentials
// only in base64) — the credentials of any Authorization header quoted in
// the text are replaced even when they are not known, and each URL goes
// through RedactURL.
func redactText(text string, secrets ...string) string {
	var fragments []string
	for _, s := range secrets {
		if len(s) < minSecretLen {
			continue
		}
		for _, form := range literalForms(s) {
			text = strings.ReplaceAll(text, form, redacted)
		}
		fragments = append(fragments, base64Fragments(s)...)
	}
	if len(fragments) > 0 {
		text = base64Run.ReplaceAllStringFunc(text, func(run string) string {
			for _, f := range fragments {
				if strings.Contains(run, f) {
					return redacted
				}
			}
			return run
		})
	}
	text = authHeaderPattern.ReplaceAllString(text, "${1}"+redacted)
	return urlPattern.ReplaceAllStringFunc(text, RedactURL)
}

// literalForms are the spellings of a secret in text: as it is and
// percent-encoded the ways URLs and forms encode it (upper- and lower-case
// hex).
func literalForms(s string) []string {
	forms := []string{s}
	for _, enc := range []string{url.QueryEscape(s), url.PathEscape(s)} {
		forms = append(forms, enc, percentLower.ReplaceAllStringFunc(enc, strings.ToLower))
	}
	slices.Sort(forms)
	return slices.Compact(forms)
}

var percentLower = regexp.MustCompile(`%[0-9A-F]{2}`)

// minFragment is the shortest base64 fragment matched: two groups. Shorter
// fragments of a short secret would match ordinary words.
const minFragment = 8

// base64Fragments returns, for each of the three byte alignments a secret
// can have inside a longer base64-encoded text (such as "user:secret"),
// the base64 characters that depend on the secret alone, in the standard
// and the URL alphabet. Any encoding that contains the secret contains one
// of them.
func base64Fragments(s string) []string {
	var out []string
	for k := 0; k < 3 && k < len(s); k++ {
		n := (len(s) - k) / 3 * 3
		if n == 0 {
			continue
		}
		chunk := []byte(s[k : k+n])
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
			if f := enc.EncodeToString(chunk); len(f) >= minFragment {
				out = append(out, f)
			}
		}
	}
	return out
}

// base64Run is a run of base64 characters (either alphabet, with padding):
// a match replaces the whole run, so no partial encoding of the secret
// stays at its edges.
var base64Run = regexp.MustCompile(`[A-Za-z0-9+/_-]{8,}={0,2}`)

// authHeaderPattern finds credentials quoted in text as an Authorization
// header or parameter: the scheme (Basic, Bearer, Token, …) is kept, what
// follows is replaced.
var authHeaderPattern = regexp.MustCompile(`(?i)((?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:basic|bearer|token|digest|negotiate)\s+)?)[^\s"',;]+`)

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
