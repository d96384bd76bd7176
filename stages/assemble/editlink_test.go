package assemble

import "testing"

func TestEditURLPerForge(t *testing.T) {
	cases := []struct {
		clone, branch string
		roots         []string
		want          string
	}{
		{"https://github.com/o/r.git", "main", []string{"docs"}, "https://github.com/o/r/edit/main/docs/{path}"},
		{"git@github.com:o/r.git", "main", []string{"docs/"}, "https://github.com/o/r/edit/main/docs/{path}"},
		{"ssh://git@github.com:22/o/r.git", "main", []string{"."}, "https://github.com/o/r/edit/main/{path}"},
		{"https://user:tok@gitlab.example.com/group/sub/r.git", "release/1.0", []string{"manual"}, "https://gitlab.example.com/group/sub/r/-/edit/release/1.0/manual/{path}"},
		{"https://codeberg.org/o/r", "dev", []string{"docs"}, "https://codeberg.org/o/r/_edit/dev/docs/{path}"},
		{"https://bitbucket.org/o/r.git", "main", []string{"docs"}, "https://bitbucket.org/o/r/src/main/docs/{path}?mode=edit"},
		{"http://gitea.local:3000/o/r.git", "main", []string{"docs"}, "http://gitea.local:3000/o/r/_edit/main/docs/{path}"},
		{"https://github.com/o/r.git", "a b", []string{"my docs"}, "https://github.com/o/r/edit/a%20b/my%20docs/{path}"},
		// No edit link: unknown forge, local path, no branch, several roots.
		{"https://git.example.org/o/r.git", "main", []string{"docs"}, ""},
		{"/srv/git/r", "main", []string{"docs"}, ""},
		{"https://github.com/o/r.git", "", []string{"docs"}, ""},
		{"https://github.com/o/r.git", "main", []string{"docs", "guides"}, ""},
	}
	for _, c := range cases {
		if got := editURL(c.clone, c.branch, c.roots); got != c.want {
			t.Errorf("editURL(%q, %q, %v) = %q, want %q", c.clone, c.branch, c.roots, got, c.want)
		}
	}
}

// Links to files outside the documentation roots lead to the forge's page
// of the file on the branch or tag built; unknown forges get none.
func TestSourceURLPerForge(t *testing.T) {
	for _, c := range []struct{ url, ref, want string }{
		{"https://x-access-token:s3cret@github.com/o/r.git", "main", "https://github.com/o/r/blob/main/{path}"},
		{"git@gitlab.com:g/sub/r.git", "v1.0", "https://gitlab.com/g/sub/r/-/blob/v1.0/{path}"},
		{"https://codeberg.org/o/r", "feature/x", "https://codeberg.org/o/r/src/branch/feature/x/{path}"},
		{"https://bitbucket.org/o/r.git", "main", "https://bitbucket.org/o/r/src/main/{path}"},
		{"file:///srv/git/r", "main", ""},
		{"https://github.com/o/r.git", "", ""},
	} {
		if got := sourceURL(c.url, c.ref); got != c.want {
			t.Errorf("sourceURL(%q, %q) = %q, want %q", c.url, c.ref, got, c.want)
		}
	}
}
