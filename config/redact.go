package config

import "strings"

// RedactedURL returns the repository URL with any user info replaced by
// "***" (https://***@host/org/repo.git, ***@host:org/repo.git), so a URL
// with an embedded token can be logged.
func (r Repository) RedactedURL() string {
	return redactUserInfo(r.URL)
}

// redactUserInfo hides the user info of a URL or of an scp-like Git
// address: everything between the scheme and the last '@' becomes "***".
// It deliberately does not parse the URL, because a password containing
// '/', '?', '#' or '@' can fool a parser into showing part of it; for the
// rare path that contains '@' this hides a little too much, which is the
// safe side for a log line. Local paths are returned unchanged.
func redactUserInfo(s string) string {
	scheme, rest, hasScheme := strings.Cut(s, "://")
	if !hasScheme {
		if strings.HasPrefix(s, "/") || strings.HasPrefix(s, ".") {
			return s
		}
		scheme, rest = "", s
	}
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return s
	}
	if hasScheme {
		return scheme + "://***@" + rest[at+1:]
	}
	return "***@" + rest[at+1:]
}
