package links

import "testing"

// A file's URL is where Hugo publishes it: a folder's page at the
// folder, a page as a folder named by its slug or its file, Hugo's path
// rules applied to pages and folders only.
func TestAddressesAreWhereHugoPublishes(t *testing.T) {
	pages := map[string]bool{}
	for _, p := range []string{"r/README.md", "r/guide/index.md", "r/guide/README.md", "r/guide/setup.md",
		"r/My Notes.md", "r/Ünïcode.md", "r/x (1).md", "r/slugged.md", "r/deep/er/page.md", "r/both/_index.md", "r/both/index.md", "r/rd/Readme.md", "r/rd/README.md"} {
		pages[p] = true
	}
	a := NewAddresses("/handbook/", pages, map[string]string{"r/slugged.md": "short"})
	for p, want := range map[string]string{
		"r/README.md":         "/handbook/docs/r/",
		"r":                   "/handbook/docs/r/",
		"r/guide/index.md":    "/handbook/docs/r/guide/",
		"r/guide/README.md":   "/handbook/docs/r/guide/README/", // index.md is the folder's page
		"r/guide/setup.md":    "/handbook/docs/r/guide/setup/",
		"r/My Notes.md":       "/handbook/docs/r/My-Notes/",
		"r/Ünïcode.md":        "/handbook/docs/r/%C3%9Cn%C3%AFcode/",
		"r/x (1).md":          "/handbook/docs/r/x-1/",
		"r/slugged.md":        "/handbook/docs/r/short/",
		"r/deep":              "/handbook/docs/r/deep/", // a folder with pages below it
		"r/both/index.md":     "/handbook/docs/r/both/",
		"r/rd/README.md":      "/handbook/docs/r/rd/", // the first README by name
		"r/rd/Readme.md":      "/handbook/docs/r/rd/Readme/",
		"r/img/a b.png":       "/handbook/docs/r/img/a%20b.png",
		"r/img":               "/handbook/docs/r/img",
		"r/files/a&b (1).pdf": "/handbook/docs/r/files/a&b%20%281%29.pdf",
	} {
		if got := a.URL(p); got != want {
			t.Errorf("URL(%q) = %q, want %q", p, got, want)
		}
	}
}
