package webhook

import (
	"slices"
	"strings"
	"testing"

	"github.com/docweave/docweave/config"
)

func TestDecidePush(t *testing.T) {
	m, _ := newMatcher([]config.Repository{
		{Name: "follows-default", URL: "https://forge.example/team/docs"},
		{Name: "on-stable", URL: "https://forge.example/team/docs", Branch: "stable"},
		{Name: "elsewhere", URL: "https://forge.example/team/other", Branch: "main"},
	})
	urls := []string{"https://forge.example/team/docs.git"}
	sha := "0123456789abcdef0123456789abcdef01234567"
	cases := []struct {
		name   string
		push   pushEvent
		tags   bool
		repos  []string
		branch string
		tag    string
		reason string
	}{
		{name: "default branch", push: pushEvent{ref: "refs/heads/main", commit: sha, defaultBranch: "main", urls: urls},
			repos: []string{"follows-default"}, branch: "main"},
		{name: "configured branch", push: pushEvent{ref: "refs/heads/stable", commit: sha, defaultBranch: "main", urls: urls},
			repos: []string{"on-stable"}, branch: "stable"},
		{name: "default unknown", push: pushEvent{ref: "refs/heads/feature", commit: sha, urls: urls},
			repos: []string{"follows-default"}, branch: "feature"},
		{name: "other branch", push: pushEvent{repository: "team/docs", ref: "refs/heads/feature", defaultBranch: "main", urls: urls},
			reason: `push to branch "feature" of team/docs; the configured branch is "main" or "stable"`},
		{name: "unknown repository", push: pushEvent{repository: "team/nope", ref: "refs/heads/main", urls: []string{"https://forge.example/team/nope"}},
			reason: "no configured repository has the URL of team/nope"},
		{name: "unknown repository without a name", push: pushEvent{ref: "refs/heads/main", urls: []string{"https://u:pw@forge.example/team/nope"}},
			reason: "forge.example/team/nope"},
		{name: "deleted", push: pushEvent{ref: "refs/heads/main", deleted: true, defaultBranch: "main", urls: urls},
			reason: "refs/heads/main deleted"},
		{name: "tag off", push: pushEvent{ref: "refs/tags/v1", commit: sha, urls: urls}, reason: "tag push (v1)"},
		{name: "tag on", push: pushEvent{ref: "refs/tags/v1", commit: sha, urls: urls}, tags: true,
			repos: []string{"follows-default", "on-stable"}, tag: "v1"},
		{name: "odd ref", push: pushEvent{ref: "refs/notes/commits", urls: urls}, reason: `ref "refs/notes/commits"`},
	}
	for _, c := range cases {
		d := decidePush(m, c.push, c.tags)
		if !slices.Equal(d.repos, c.repos) || d.branch != c.branch || d.tag != c.tag {
			t.Errorf("%s: decision %+v, want repos %v branch %q tag %q", c.name, d, c.repos, c.branch, c.tag)
		}
		if c.reason != "" && !strings.Contains(d.reason, c.reason) {
			t.Errorf("%s: reason %q, want it to contain %q", c.name, d.reason, c.reason)
		}
		if strings.Contains(d.reason, "pw@") {
			t.Errorf("%s: reason leaks credentials: %q", c.name, d.reason)
		}
	}
}

func TestIsZeroCommit(t *testing.T) {
	if !isZeroCommit(strings.Repeat("0", 40)) || !isZeroCommit(strings.Repeat("0", 64)) {
		t.Error("all-zero IDs not recognised")
	}
	for _, s := range []string{"", "0", strings.Repeat("0", 39) + "1", "0000000"} {
		if isZeroCommit(s) {
			t.Errorf("isZeroCommit(%q) = true", s)
		}
	}
}
