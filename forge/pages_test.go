package forge

import (
	"slices"
	"testing"
)

func TestWebURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://github.com/o/r.git":                       "https://github.com/o/r",
		"git@github.com:o/r.git":                           "https://github.com/o/r",
		"ssh://git@gitlab.example.com:2222/g/sub/r.git":    "https://gitlab.example.com/g/sub/r",
		"https://user:tok@gitlab.example.com:8443/g/r.git": "https://gitlab.example.com:8443/g/r",
		"http://gitea.local:3000/o/r.git":                  "http://gitea.local:3000/o/r",
		"git@[::1]:o/r.git":                                "https://[::1]/o/r",
		"https://github.com/o/r/":                          "https://github.com/o/r",
		"file:///srv/git/r":                                "",
		"file://localhost/srv/git/r":                       "",
		"/srv/git/r":                                       "",
		"https://github.com/":                              "",
		"https://%zz/o/r":                                  "",
	} {
		if got := WebURL(in); got != want {
			t.Errorf("WebURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPagesPerForge(t *testing.T) {
	for _, c := range []struct{ url, source, edit, query string }{
		{"https://github.com/o/r.git", "https://github.com/o/r/blob/", "https://github.com/o/r/edit/", ""},
		{"git@gitlab.com:g/sub/r.git", "https://gitlab.com/g/sub/r/-/blob/", "https://gitlab.com/g/sub/r/-/edit/", ""},
		{"https://codeberg.org/o/r", "https://codeberg.org/o/r/src/branch/", "https://codeberg.org/o/r/_edit/", ""},
		{"https://bitbucket.org/o/r.git", "https://bitbucket.org/o/r/src/", "https://bitbucket.org/o/r/src/", "?mode=edit"},
		{"https://git.example.org/o/r.git", "", "", ""},
		{"/srv/git/r", "", "", ""},
	} {
		edit, query := EditPage(c.url)
		if got := SourcePage(c.url); got != c.source || edit != c.edit || query != c.query {
			t.Errorf("%s: source %q, edit %q %q; want %q, %q %q", c.url, got, edit, query, c.source, c.edit, c.query)
		}
	}
}

// The file pages read back from links are those the forges write, and a
// caller cannot change them.
func TestFilePages(t *testing.T) {
	got := FilePages()
	for _, p := range []string{"blob/", "tree/", "-/blob/", "-/tree/", "src/branch/", "src/tag/", "src/commit/"} {
		if !slices.Contains(got, p) {
			t.Errorf("FilePages() lacks %q", p)
		}
	}
	got[0] = "changed"
	if FilePages()[0] == "changed" {
		t.Error("FilePages() returns the package's slice")
	}
}
