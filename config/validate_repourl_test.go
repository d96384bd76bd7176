package config

import (
	"strings"
	"testing"
)

// The gate reads addresses by the grammar every other part reads them
// by (gitx/remote): a Windows path is not an scp-like address on host
// "C", an ssh alias may hold '_', and brackets hold an IPv6 address only.
func TestRepositoryURLsByTheSharedGrammar(t *testing.T) {
	for _, ok := range []string{"my_alias:org/repo", "git@[::1]:org/repo.git", "git@[2001:db8::1]:o/r"} {
		if msg := repoURLProblem(ok); msg != "" {
			t.Errorf("%q refused: %s", ok, msg)
		}
	}
	for bad, want := range map[string]string{
		`C:\docs\repo`:           "is not a URL",
		"git@[zz]:org/r":         "is not a URL",
		"git@host:":              "is not a URL",
		"/srv/x://y":             `has scheme "/srv/x"`,
		"-o@host:repo":           "starts with '-'",
		"https://u:s3cret@h:0/r": "has port 0",
	} {
		msg := repoURLProblem(bad)
		if !strings.Contains(msg, want) {
			t.Errorf("%q: %q, want it to contain %q", bad, msg, want)
		}
		if strings.Contains(msg, "s3cret") {
			t.Errorf("%q: the problem shows the password: %s", bad, msg)
		}
	}
}
