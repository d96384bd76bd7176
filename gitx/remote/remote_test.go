package remote

import (
	"strings"
	"testing"
)

// Every form docweave accepts, and the edge cases the four grammars this
// parser replaced (forge, edit links, configuration, webhooks) were
// tested with.
func TestParse(t *testing.T) {
	cases := []struct {
		raw                      string
		form                     Form
		scheme, user, host, port string
		repo, owner, name, key   string
		credentials              bool
	}{
		{"https://github.com/org/repo.git", URL, "https", "", "github.com", "", "org/repo", "org", "repo", "github.com/org/repo", false},
		{"https://github.com/Org/Repo", URL, "https", "", "github.com", "", "Org/Repo", "Org", "Repo", "github.com/org/repo", false},
		{"HTTP://GitHub.com/org/repo/", URL, "http", "", "GitHub.com", "", "org/repo", "org", "repo", "github.com/org/repo", false},
		{"https://x-access-token:s3cret@github.com/o/r.git", URL, "https", "", "github.com", "", "o/r", "o", "r", "github.com/o/r", true},
		{"https://tok@github.com/o/r.git", URL, "https", "", "github.com", "", "o/r", "o", "r", "github.com/o/r", true},
		{"http://127.0.0.1:8080/repo.git", URL, "http", "", "127.0.0.1", "8080", "repo", "", "repo", "127.0.0.1/repo", false},
		{"https://gitlab.example.org:8443/group/sub/project", URL, "https", "", "gitlab.example.org", "8443", "group/sub/project", "group/sub", "project", "gitlab.example.org/group/sub/project", false},
		{"ssh://git@gitlab.example.com:22/g/r.git", URL, "ssh", "git", "gitlab.example.com", "22", "g/r", "g", "r", "gitlab.example.com/g/r", false},
		{"ssh://git:pw@host/o/r.git", URL, "ssh", "", "host", "", "o/r", "o", "r", "host/o/r", true},
		{"ssh://git@[::1]:2222/org/repo.git", URL, "ssh", "git", "::1", "2222", "org/repo", "org", "repo", "::1/org/repo", false},
		{"git://github.com/org/repo.git", URL, "git", "", "github.com", "", "org/repo", "org", "repo", "github.com/org/repo", false},
		{"https://github.com//org//repo.git/", URL, "https", "", "github.com", "", "org//repo", "org/", "repo", "github.com/org/repo", false},
		{"https://user:secret@host/a//b.git?x=1#f", URL, "https", "", "host", "", "a//b", "a/", "b", "host/a/b", true},
		{"http://host/a%20b/r.git", URL, "http", "", "host", "", "a b/r", "a b", "r", "host/a b/r", false},
		{"file:///srv/git/repo.git", URL, "file", "", "", "", "srv/git/repo", "srv/git", "repo", "/srv/git/repo", false},
		{"file://localhost/srv/git/repo", URL, "file", "", "localhost", "", "srv/git/repo", "srv/git", "repo", "localhost/srv/git/repo", false},
		{"git@github.com:org/repo.git", SCP, "ssh", "git", "github.com", "", "org/repo", "org", "repo", "github.com/org/repo", false},
		{"GIT@GitHub.COM:Org/Repo.GIT", SCP, "ssh", "GIT", "GitHub.COM", "", "Org/Repo.GIT", "Org", "Repo.GIT", "github.com/org/repo", false},
		{"github.com:org/repo", SCP, "ssh", "", "github.com", "", "org/repo", "org", "repo", "github.com/org/repo", false},
		{"git@gitlab.com:g/sub/r.git", SCP, "ssh", "git", "gitlab.com", "", "g/sub/r", "g/sub", "r", "gitlab.com/g/sub/r", false},
		{"[::1]:org/repo", SCP, "ssh", "", "::1", "", "org/repo", "org", "repo", "::1/org/repo", false},
		{"git@[::1]:org/repo.git", SCP, "ssh", "git", "::1", "", "org/repo", "org", "repo", "::1/org/repo", false},
		{"my_alias:org/repo", SCP, "ssh", "", "my_alias", "", "org/repo", "org", "repo", "my_alias/org/repo", false},
		{"h:org/repo", SCP, "ssh", "", "h", "", "org/repo", "org", "repo", "h/org/repo", false},
		{"user:pass@host:org/repo", SCP, "ssh", "", "host", "", "org/repo", "org", "repo", "host/org/repo", true},
		{"host:org@x/repo", SCP, "ssh", "", "host", "", "org@x/repo", "org@x", "repo", "host/org@x/repo", false},
		{"git@host:~user/repo.git", SCP, "ssh", "git", "host", "", "~user/repo", "~user", "repo", "host/~user/repo", false},
		// Local paths, and what only looks like another form.
		{"/srv/git/docs.git", Path, "", "", "", "", "srv/git/docs", "srv/git", "docs", "/srv/git/docs", false},
		{`C:\docs\repo`, Path, "", "", "", "", `C:\docs\repo`, "", `C:\docs\repo`, "/c:/docs/repo", false},
		{"./rel:path", Path, "", "", "", "", "./rel:path", ".", "rel:path", "/./rel:path", false},
		{"relative/path", Path, "", "", "", "", "relative/path", "relative", "path", "/relative/path", false},
		{"0/://0@0", Path, "", "", "", "", "0/://0@0", "0/:/", "0@0", "/0/:/0@0", false},
		{"-oProxyCommand=x:repo", Path, "", "", "", "", "-oProxyCommand=x:repo", "", "-oProxyCommand=x:repo", "/-oproxycommand=x:repo", false},
		{"git@host:", Path, "", "", "", "", "git@host:", "", "git@host:", "/git@host:", false},
		{"a@b@host:org/r", Path, "", "", "", "", "a@b@host:org/r", "a@b@host:org", "r", "/a@b@host:org/r", false},
		{"::", Path, "", "", "", "", "::", "", "::", "/::", false},
		{"https://", URL, "https", "", "", "", "", "", "", "", false},
	}
	for _, c := range cases {
		a, err := Parse(c.raw)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.raw, err)
			continue
		}
		got := []any{a.Form, a.Scheme, a.User, a.Host, a.Port, a.Repo(), a.Owner(), a.Name(), a.Key(), a.Credentials}
		want := []any{c.form, c.scheme, c.user, c.host, c.port, c.repo, c.owner, c.name, c.key, c.credentials}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("Parse(%q): form, scheme, user, host, port, repo, owner, name, key, credentials = %v, want %v", c.raw, got, want)
				break
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	if _, err := Parse(""); err != ErrEmpty {
		t.Errorf("Parse(\"\") = %v, want ErrEmpty", err)
	}
	a, err := Parse("https://%zz/r")
	if err == nil || a.Form != URL || a.Scheme != "https" {
		t.Errorf("Parse of a bad URL = %+v, %v; want an error with form and scheme", a, err)
	}
}

func TestLocal(t *testing.T) {
	for raw, want := range map[string]bool{
		"/srv/git/r": true, "file:///srv/git/r": true, "relative": true,
		"https://h/o/r": false, "git@h:o/r": false, "ssh://h/o/r": false,
	} {
		a, _ := Parse(raw)
		if a.Local() != want {
			t.Errorf("Parse(%q).Local() = %v", raw, !want)
		}
	}
}

// A shown address keeps everything that names the repository and nothing
// that could be a secret.
func TestRedacted(t *testing.T) {
	for raw, want := range map[string]string{
		"https://x-access-token:s3cret@github.com/o/r.git": "https://***@github.com/o/r.git",
		"https://s3cret@github.com/o/r.git":                "https://***@github.com/o/r.git",
		"https://github.com/o/r.git?token=s3cret#x":        "https://github.com/o/r.git",
		"ssh://git@host:2222/o/r.git":                      "ssh://git@host:2222/o/r.git",
		"ssh://git:s3cret@host/o/r.git":                    "ssh://***@host/o/r.git",
		"git@github.com:o/r.git":                           "git@github.com:o/r.git",
		"user:s3cret@host:o/r.git":                         "***@host:o/r.git",
		"git@[::1]:o/r":                                    "git@[::1]:o/r",
		"/srv/git/r":                                       "/srv/git/r",
		"file:///srv/git/r":                                "file:///srv/git/r",
	} {
		a, err := Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.Redacted(); got != want {
			t.Errorf("Parse(%q).Redacted() = %q, want %q", raw, got, want)
		}
	}
}

// FuzzParse: any input parses without panicking; the key is lower-case
// with no empty segment; the shown form never holds the user info of an
// address with credentials and reads back as the same repository.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"https://github.com/Org/Repo.git", "git@github.com:org/repo", "ssh://git@github.com:22/org/repo/",
		"https://user:secret@host/a//b.git?x=1#f", "/srv/git/local", `C:\docs\repo`, "file:///srv/x.git",
		"::", "@:", "[::1]:o/r", "git@[::1]:o/r", "user:pw@host:o/r", "0/://0@0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		a, err := Parse(raw)
		if err != nil {
			return
		}
		key := a.Key()
		if key != strings.ToLower(key) || strings.Contains(key, "//") {
			t.Fatalf("Parse(%q).Key() = %q: not lower-case or has an empty segment", raw, key)
		}
		if a.Form == Path {
			return
		}
		shown := a.Redacted()
		if a.Credentials {
			hidden := "***@"
			if a.Form == URL {
				hidden = a.Scheme + "://***@"
			}
			if !strings.HasPrefix(shown, hidden) {
				t.Fatalf("Parse(%q).Redacted() = %q does not hide the user info", raw, shown)
			}
		}
		if strings.Contains(a.Host, ":") && !strings.Contains(raw, "[") {
			return // net/url reads host "::0" as ":" and port 0: garbage in
		}
		back, err := Parse(shown)
		if err != nil {
			t.Fatalf("Parse(%q).Redacted() = %q does not parse: %v", raw, shown, err)
		}
		if back.Form != a.Form || back.Key() != key {
			t.Fatalf("Parse(%q): key %q, form %v; its shown form %q: key %q, form %v", raw, key, a.Form, shown, back.Key(), back.Form)
		}
	})
}
