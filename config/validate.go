package config

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Validate checks the configuration for its mode and returns a
// *ValidationError listing every problem at once, sorted by key path, or
// nil. Problems found while loading (unknown keys, wrong types, unset
// variables) are included; a rule does not repeat a key that already has
// a loading problem, because its value is then only the default.
func (c *Config) Validate() error {
	var rules problemList
	c.validateRepositories(&rules)
	c.validateForges(&rules)
	c.validateBuild(&rules)
	c.validateDaemon(&rules)
	c.validateSite(&rules)
	c.validateIngress(&rules)
	c.validateBroker(&rules)
	c.validateBindAddresses(&rules)
	c.validateLimits(&rules)
	c.validateStrings(&rules)

	decodeKeys := map[string]bool{}
	problems := append([]Problem(nil), c.loadState.decodeProblems...)
	for _, p := range problems {
		decodeKeys[p.Key] = true
	}
	for _, p := range rules {
		if !decodeKeys[p.Key] {
			problems = append(problems, p)
		}
	}
	if len(problems) == 0 {
		return nil
	}
	sortProblems(problems)
	return &ValidationError{Problems: problems}
}

// checkEnum reports a value outside the allowed set, listing the set.
func checkEnum(l *problemList, key, value string, allowed ...string) {
	if !slices.Contains(allowed, value) {
		l.add(key, "%q is not allowed; expected one of %s", value, strings.Join(allowed, ", "))
	}
}

// checkPort reports a TCP port outside 1-65535 and says whether it is in
// range.
func checkPort(l *problemList, key string, port int) bool {
	if port < 1 || port > 65535 {
		l.add(key, "port %d is out of range; expected 1-65535", port)
		return false
	}
	return true
}

// checkGlobs reports empty or malformed glob patterns of a list.
func checkGlobs(l *problemList, key string, patterns []string) {
	for i, p := range patterns {
		k := fmt.Sprintf("%s[%d]", key, i)
		if p == "" {
			l.add(k, "is empty; expected a glob pattern such as * or release-*")
			continue
		}
		if _, err := path.Match(p, ""); err != nil {
			l.add(k, "%q is not a valid glob pattern; expected *, ?, [...] and literal characters", p)
		}
	}
}

// isSafeSegment reports whether s can be used as one path segment of the
// site: letters, digits, '-', '_' and '.', not starting with '.'.
func isSafeSegment(s string) bool {
	if s == "" || s[0] == '.' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.':
		default:
			return false
		}
	}
	return true
}

// safeSegmentExpected is how problems describe a valid path segment.
const safeSegmentExpected = "expected only letters, digits, -, _ and ., not starting with ."
