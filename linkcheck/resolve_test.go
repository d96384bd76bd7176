package linkcheck

import "testing"

func TestResolveWithoutBaseURL(t *testing.T) {
	r := newResolver("")
	page := r.pageURL("docs/repo/guide/index.html")
	cases := []struct {
		raw  string
		kind Kind
		url  string
		path string
		frag string
	}{
		{"install/", KindInternal, "/docs/repo/guide/install/", "docs/repo/guide/install/", ""},
		{"../", KindInternal, "/docs/repo/", "docs/repo/", ""},
		{"/css/site.css", KindInternal, "/css/site.css", "css/site.css", ""},
		{"#setup", KindInternal, "/docs/repo/guide/#setup", "docs/repo/guide/", "setup"},
		{"/", KindInternal, "/", "", ""},
		{"img/a%20b.png", KindInternal, "/docs/repo/guide/img/a%20b.png", "docs/repo/guide/img/a b.png", ""},
		{"HTTPS://Example.ORG/Path?q=1#frag", KindExternal, "https://example.org/Path?q=1", "", ""},
		{"//cdn.example.org/lib.js", KindExternal, "http://cdn.example.org/lib.js", "", ""},
		{"mailto:docs@example.org", KindSkipped, "mailto:docs@example.org", "", ""},
		{"javascript:void(0)", KindSkipped, "javascript:void(0)", "", ""},
		{"#", KindSkipped, "#", "", ""},
		{"http://[::1", KindInvalid, "http://[::1", "", ""},
	}
	for _, c := range cases {
		got := r.resolve(page, "", RawLink{URL: c.raw})
		if got.Kind != c.kind || got.URL != c.url || got.Path != c.path || got.Fragment != c.frag {
			t.Errorf("%q: got %+v, want %s %q path %q frag %q", c.raw, got, c.kind, c.url, c.path, c.frag)
		}
	}
}

func TestResolveWithBaseURLAndBasePath(t *testing.T) {
	r := newResolver("https://docs.example.org/handbook/")
	page := r.pageURL("docs/a/index.html")
	if got := r.display(page); got != "https://docs.example.org/handbook/docs/a/" {
		t.Fatalf("page shown as %q", got)
	}
	if got := r.resolve(page, "", RawLink{URL: "../b/#x"}); got.URL != "https://docs.example.org/handbook/docs/b/#x" {
		t.Fatalf("internal target shown as %q, want the absolute URL", got.URL)
	}
	cases := []struct {
		raw  string
		kind Kind
		path string
	}{
		{"/handbook/docs/b/", KindInternal, "docs/b/"},
		{"https://docs.example.org/handbook/search/index.json", KindInternal, "search/index.json"},
		{"/handbook", KindInternal, ""},
		{"/elsewhere/", KindExternal, ""}, // same host, outside the site: checked over HTTP
		{"https://other.example.org/handbook/", KindExternal, ""},
	}
	for _, c := range cases {
		got := r.resolve(page, "", RawLink{URL: c.raw})
		if got.Kind != c.kind || got.Path != c.path {
			t.Errorf("%q: got %+v, want %s path %q", c.raw, got, c.kind, c.path)
		}
	}
}

func TestResolveHonoursBaseHref(t *testing.T) {
	r := newResolver("")
	page := r.pageURL("docs/a/index.html")
	got := r.resolve(page, "/docs/b/", RawLink{URL: "c/"})
	if got.Path != "docs/b/c/" {
		t.Fatalf("with <base href=/docs/b/>: %+v", got)
	}
}

func TestPageURL(t *testing.T) {
	r := newResolver("")
	for file, want := range map[string]string{"index.html": "/", "docs/x/index.html": "/docs/x/", "404.html": "/404.html"} {
		if got := r.display(r.pageURL(file)); got != want {
			t.Errorf("%s: %q, want %q", file, got, want)
		}
	}
}
