package webhook

import "testing"

func TestRepoKeyEquivalentSpellings(t *testing.T) {
	groups := [][]string{
		{
			"https://github.com/Org/Repo.git",
			"https://github.com/org/repo",
			"http://GitHub.com/org/repo/",
			"git@github.com:org/repo.git",
			"github.com:org/repo",
			"ssh://git@github.com/org/repo.git",
			"ssh://git@github.com:22/org/repo",
			"git://github.com/org/repo.git",
			"https://x-access-token:s3cret@github.com/org/repo.git",
			"https://github.com//org//repo.git/",
			"  https://github.com/org/repo  ",
		},
		{
			"https://gitlab.example.org/group/sub/project.git",
			"git@gitlab.example.org:group/sub/project.git",
			"ssh://git@gitlab.example.org:2222/group/sub/project.git",
			"https://gitlab.example.org:8443/group/sub/project",
		},
		{
			"/srv/git/docs",
			"/srv/git/docs.git",
			"file:///srv/git/docs",
		},
	}
	for _, group := range groups {
		want := repoKey(group[0])
		if want == "" {
			t.Fatalf("repoKey(%q) is empty", group[0])
		}
		for _, u := range group[1:] {
			if got := repoKey(u); got != want {
				t.Errorf("repoKey(%q) = %q, want %q (as %q)", u, got, want, group[0])
			}
		}
	}
}

func TestRepoKeyDistinguishesRepositories(t *testing.T) {
	pairs := [][2]string{
		{"https://github.com/org/repo", "https://github.com/org/repo2"},
		{"https://github.com/org/repo", "https://gitlab.com/org/repo"},
		{"https://github.com/org/repo", "https://github.com/other/repo"},
		{"git@github.com:org/repo.git", "git@github.com:org/repo-docs.git"},
		{"https://gitlab.example.org/group/project", "https://gitlab.example.org/group/sub/project"},
		{"/srv/git/docs", "https://srv/git/docs"},
	}
	for _, p := range pairs {
		if a, b := repoKey(p[0]), repoKey(p[1]); a == b {
			t.Errorf("repoKey(%q) == repoKey(%q) == %q", p[0], p[1], a)
		}
	}
}

func TestRepoKeyStripsCredentials(t *testing.T) {
	key := repoKey("https://user:hunter2@example.com/team/handbook.git")
	if key != "example.com/team/handbook" {
		t.Fatalf("repoKey = %q", key)
	}
}

func TestRepoKeyEmpty(t *testing.T) {
	for _, u := range []string{"", "   ", "https://", "https://%zz/"} {
		if k := repoKey(u); k != "" {
			t.Errorf("repoKey(%q) = %q, want empty", u, k)
		}
	}
}
