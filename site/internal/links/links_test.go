package links

import "testing"

func TestLinkPathDecodesWhatForgesWrite(t *testing.T) {
	for in, want := range map[string]string{
		"securing%5c_nats/tls.md":    "securing_nats/tls.md",
		`securing\_nats/tls.md`:      "securing_nats/tls.md",
		"guide/getting%20started.md": "guide/getting started.md",
		"setup.md#step-2":            "setup.md",
		"setup.md?plain=1#x":         "setup.md",
		`a\b.md`:                     `a\b.md`, // not an escape: b is no punctuation
		"../up/page.md":              "../up/page.md",
	} {
		if got := linkPath(in); got != want {
			t.Errorf("linkPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRelativeLink(t *testing.T) {
	for _, c := range []struct{ from, to, want string }{
		{"r/a", "r/a/b.md", "b.md"},
		{"r/a", "r/c/d.md", "../c/d.md"},
		{"r", "r/x/y/z.png", "x/y/z.png"},
		{"r/a/b", "r", "../../"},
	} {
		if got := relativeLink(c.from, c.to); got != c.want {
			t.Errorf("relativeLink(%q, %q) = %q, want %q", c.from, c.to, got, c.want)
		}
	}
}
