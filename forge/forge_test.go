package forge

import "testing"

func TestFromURL(t *testing.T) {
	cases := map[string]string{
		"https://github.com/org/repo.git":         GitHub,
		"git@github.com:org/repo.git":             GitHub,
		"ssh://git@gitlab.example.com:22/g/r.git": GitLab,
		"https://codeberg.org/o/r":                Forgejo,
		"https://gitea.internal/o/r":              Forgejo,
		"https://bitbucket.org/o/r":               Bitbucket,
		"file:///srv/git/repo.git":                Local,
		"/srv/git/repo":                           Local,
		"http://127.0.0.1:8080/repo.git":          "127-0-0-1",
		"https://Docs.Example.com/team/handbook":  "docs-example-com",
		`C:\docs\repo`:                            Local,
		"git@[::1]:o/r.git":                       "--1",
	}
	for in, want := range cases {
		if got := FromURL(in); got != want {
			t.Errorf("FromURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNamespace(t *testing.T) {
	one := []string{GitHub, GitHub}
	two := []string{GitHub, GitLab}
	cases := []struct {
		mode   string
		forges []string
		want   bool
	}{
		{"auto", one, false}, {"auto", two, true},
		{"always", one, true}, {"never", two, false},
	}
	for _, c := range cases {
		if got := Namespace(c.mode, c.forges); got != c.want {
			t.Errorf("Namespace(%s, %v) = %v", c.mode, c.forges, got)
		}
	}
}
