package config

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ReservedRepositoryName is the one safe name a repository may not have:
// the site keeps /docs/_xref/ for the redirect pages of links by id
// (xref:ID), which the pages of a repository of that name would share.
// Discovery never gives it either.
const ReservedRepositoryName = "_xref"

// validateRepositories checks repositories[]: required fields, unique and
// path-safe names, documentation roots inside the repository, and the
// credentials each auth.type needs.
func (c *Config) validateRepositories(l *problemList) {
	if len(c.Repositories) == 0 && len(c.Forges) == 0 && c.Mode != ModeIngress {
		l.add("repositories", "no repository is configured; expected at least one entry with url and name (or a forges entry to discover them)")
	}
	firstByName := map[string]int{}
	for i, r := range c.Repositories {
		prefix := fmt.Sprintf("repositories[%d]", i)
		if msg := repoURLProblem(r.URL); msg != "" {
			l.add(prefix+".url", "%s", msg)
		}
		if r.Branch != "" {
			if msg := refNameProblem(r.Branch); msg != "" {
				l.add(prefix+".branch", "%s", msg)
			}
		}
		switch {
		case r.Name == "":
			l.add(prefix+".name", "missing; expected a unique name, used in content paths")
		case !isSafeSegment(r.Name):
			l.add(prefix+".name", "%q is not safe as a path segment; %s", r.Name, safeSegmentExpected)
		case strings.EqualFold(r.Name, ReservedRepositoryName):
			l.add(prefix+".name", "%q is reserved: the site serves the redirect pages of links by id (xref:) under /docs/%s/, where this repository's pages would be; choose another name", r.Name, ReservedRepositoryName)
		case len(r.Name) > MaxNameLength:
			l.add(prefix+".name", "is %d characters long; expected at most %d (it becomes a directory name)", len(r.Name), MaxNameLength)
		default:
			folded := strings.ToLower(r.Name)
			if first, seen := firstByName[folded]; seen {
				l.add(prefix+".name", "%q is also the name of repositories[%d] (names are compared ignoring case); expected unique names",
					r.Name, first)
			} else {
				firstByName[folded] = i
			}
		}
		validateDocPaths(l, prefix+".paths", r.Paths)
		validateAuth(l, prefix+".auth", r.Auth)
		validateDescription(l, prefix+".description", r.Description)
		validateOriginalSite(l, prefix+".original_site", r.OriginalSite)
	}
}

// MaxDescriptionLength bounds a repository's description: it is one
// card's text on the front page, not a page.
const MaxDescriptionLength = 300

// validateDescription checks that a description is one short line of
// printable text.
func validateDescription(l *problemList, key, d string) {
	switch {
	case utf8.RuneCountInString(d) > MaxDescriptionLength:
		l.add(key, "is %d characters long; expected at most %d (one sentence for the front page)", utf8.RuneCountInString(d), MaxDescriptionLength)
	case !utf8.ValidString(d):
		l.add(key, "is not valid UTF-8; expected text")
	case strings.ContainsFunc(d, unicode.IsControl):
		l.add(key, "contains a control character or line break; expected one line of text")
	}
}

// validateDocPaths checks that every documentation root is a relative path
// that stays inside the repository.
func validateDocPaths(l *problemList, key string, paths []string) {
	if paths != nil && len(paths) == 0 {
		l.add(key, "is an empty list; expected at least one documentation root (omit the key for [docs])")
	}
	for i, p := range paths {
		k := fmt.Sprintf("%s[%d]", key, i)
		slashed := filepath.ToSlash(p)
		switch {
		case strings.TrimSpace(p) == "":
			l.add(k, "is empty; expected a directory inside the repository such as docs")
		case path.IsAbs(slashed) || filepath.IsAbs(p) || filepath.VolumeName(p) != "":
			l.add(k, "%q is absolute; expected a path relative to the repository root", p)
		default:
			clean := path.Clean(slashed)
			if clean == ".." || strings.HasPrefix(clean, "../") {
				l.add(k, "%q escapes the repository; expected a path inside it", p)
				continue
			}
			for _, part := range strings.Split(clean, "/") {
				if strings.EqualFold(part, ".git") {
					l.add(k, "%q lies in the repository's .git directory, which is never published; expected a documentation directory", p)
					break
				}
			}
		}
	}
}

// authFieldFor says which auth.type uses each credential field.
var authFieldFor = []struct {
	field    string
	authType AuthType
	get      func(Auth) string
}{
	{"token", AuthToken, func(a Auth) string { return a.Token }},
	{"username", AuthBasic, func(a Auth) string { return a.Username }},
	{"password", AuthBasic, func(a Auth) string { return a.Password }},
	{"key_path", AuthSSH, func(a Auth) string { return a.KeyPath }},
}

// validateAuth checks auth.type and that exactly the fields it uses are
// set. Messages never contain the credentials.
func validateAuth(l *problemList, key string, a Auth) {
	switch a.Type {
	case AuthNone, AuthToken, AuthBasic, AuthSSH:
	default:
		l.add(key+".type", "%q is not allowed; expected one of token, basic, ssh (or omit it for no authentication)", string(a.Type))
		return
	}
	for _, f := range authFieldFor {
		k := key + "." + f.field
		set := f.get(a) != ""
		switch {
		case a.Type == AuthNone && set:
			l.add(k, "is set but %s.type is empty; expected %s.type %s", key, key, f.authType)
		case a.Type == f.authType && !set:
			l.add(k, "missing; %s.type %s needs it", key, a.Type)
		case a.Type != AuthNone && a.Type != f.authType && set:
			l.add(k, "is not used by %s.type %s; remove it or change %s.type", key, a.Type, key)
		}
	}
	if strings.Contains(a.Username, ":") {
		l.add(key+".username", "contains ':', which HTTP basic authentication cannot carry in a user name; expected a user name without ':'")
	}
	if a.Type != AuthSSH {
		if a.KnownHosts != "" {
			l.add(key+".known_hosts", "applies to %s.type ssh only; remove it or set %s.type ssh", key, key)
		}
		if a.InsecureIgnoreHostKey {
			l.add(key+".insecure_ignore_host_key", "applies to %s.type ssh only; remove it or set %s.type ssh", key, key)
		}
	}
	if a.KnownHosts != "" && a.InsecureIgnoreHostKey {
		l.add(key+".insecure_ignore_host_key", "contradicts %s.known_hosts; pin host keys or ignore them, not both", key)
	}
}
