package gitx

import "testing"

// A rooted /img/logo.png names website/static/img/logo.png when the
// repository also holds blog/img/logo.png: the static folder is the
// site's root; without one, or with two, the link names nothing.
func TestOneOfPrefersTheStaticFolder(t *testing.T) {
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{"a/img/logo.png"}, "a/img/logo.png"},
		{[]string{"blog/img/logo.png", "website/static/img/logo.png"}, "website/static/img/logo.png"},
		{[]string{"static/img/logo.png", "blog/img/logo.png"}, "static/img/logo.png"},
		{[]string{"blog/img/logo.png", "news/img/logo.png"}, ""},
		{[]string{"a/static/img/logo.png", "b/static/img/logo.png"}, ""},
	} {
		if got, ok := OneOf(c.files, "img/logo.png"); got != c.want || ok != (c.want != "") {
			t.Errorf("OneOf(%v) = %q, %v; want %q", c.files, got, ok, c.want)
		}
	}
}
