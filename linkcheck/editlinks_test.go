package linkcheck

import "testing"

func TestIsEditLink(t *testing.T) {
	cases := map[string]bool{
		"https://github.com/o/r/edit/main/docs/a.md":             true,
		"https://gitlab.com/g/sub/r/-/edit/main/docs/a.md":       true,
		"https://codeberg.org/o/r/_edit/main/docs/a.md":          true,
		"https://bitbucket.org/o/r/src/main/docs/a.md?mode=edit": true,
		"https://github.com/o/r/blob/main/docs/a.md":             false,
		"https://example.org/edit":                               false,
		"https://example.org/how-to/edit":                        false,
	}
	for u, want := range cases {
		if got := isEditLink(RawLink{URL: u}, u); got != want {
			t.Errorf("%s: %v, want %v", u, got, want)
		}
	}
	if !isEditLink(RawLink{URL: "/x", Edit: true}, "http://site/x") {
		t.Error("a link marked as an edit link in the HTML was not recognised")
	}
}
