package dialect

import "testing"

func TestRepoFindStaysInTheRepository(t *testing.T) {
	files := map[string]int64{"guide/part.md": 10, "_shared/intro.md": 20, "guide/page.md": 5}
	r := Repo{Root: "r", Page: "guide/page.md", Size: func(p string) (int64, bool) { s, ok := files[p]; return s, ok }}
	md := func(p string) []string { return []string{p, p + ".md"} }
	for name, want := range map[string]string{
		"part.md":          "guide/part.md",
		"part":             "guide/part.md",
		"/_shared/intro":   "_shared/intro.md",
		"_shared/intro.md": "_shared/intro.md", // not beside the page: from the root
		"/part.md":         "",                 // "/" is the root only
		"../guide/part.md": "",                 // never up
		"page.md":          "",                 // never the page itself
		"nothing.md":       "",
		"":                 "",
	} {
		got, _, ok := r.Find(name, md)
		if got != want || ok != (want != "") {
			t.Errorf("Find(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	if _, _, ok := (Repo{}).Find("part.md", nil); ok {
		t.Error("the zero Repo found a file")
	}
}
