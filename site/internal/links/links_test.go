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

// A rooted /img/logo.png of a Docusaurus page names the file of the
// site's static folder when the clone took another file ending with it
// too; with two outside static folders it names nothing.
func TestReferencedAnywherePrefersTheStaticFolder(t *testing.T) {
	u := Unit{Root: "r", Referenced: []string{"r/_files/blog/img/logo.png", "r/_files/website/static/img/logo.png", "r/_files/a/x.png", "r/_files/b/x.png"}}
	if got, ok := u.referencedAnywhere("img/logo.png"); !ok || got.path != "r/_files/website/static/img/logo.png" {
		t.Errorf("img/logo.png → %v, %v; want the static folder's", got, ok)
	}
	if got, ok := u.referencedAnywhere("x.png"); ok {
		t.Errorf("x.png → %v, want nothing (two files, no static folder)", got)
	}
}

// Docusaurus' @site/static/img/x.png is read from the site's folder,
// wherever it is: as the rooted /static/img/x.png.
func TestResolveDocusaurusSitePath(t *testing.T) {
	u := Unit{Root: "r", DocRoots: []string{"website/docs"}, Referenced: []string{"r/_files/website/static/img/x.png"}}
	if got, _, _ := u.resolve("r/intro.md", "@site/static/img/x.png"); !got.ok || got.path != "r/_files/website/static/img/x.png" {
		t.Errorf("@site/static/img/x.png → %+v, want the referenced file", got)
	}
}
