package linkcheck

import (
	"reflect"
	"testing"
)

func TestExtractFindsEveryKindOfLinkAndID(t *testing.T) {
	page := []byte(`<!DOCTYPE html><html><head>
<base href="/docs/">
<link rel="stylesheet" href="/css/site.css">
<link rel="preconnect" href="https://fonts.example.org">
<script src="/js/app.js"></script>
</head><body>
<h2 id="install">Install</h2><a name="legacy"></a>
<a href="guide/">Guide</a>
<a href="https://example.org/x#frag" class="external">X</a>
<a href="https://forge.example.org/o/r/edit/main/docs/a.md" rel="edit noopener">Edit</a>
<a class="btn edit-page" href="/edit-me">Edit too</a>
<img src="img/a.png" srcset="img/a-1x.png 1x, img/a-2x.png 2x">
<picture><source srcset="img/b.webp"></picture>
<iframe src="https://video.example.org/embed/1"></iframe>
<video src="v.mp4" poster="poster.jpg"><track src="subs.vtt"></video>
<a>no href</a><div id="install">duplicate id</div>
</body></html>`)
	got, err := Extract(page)
	if err != nil {
		t.Fatal(err)
	}
	if got.Base != "/docs/" {
		t.Errorf("base = %q", got.Base)
	}
	want := []RawLink{
		{Element: "link[href]", URL: "/css/site.css"},
		{Element: "script[src]", URL: "/js/app.js"},
		{Element: "a[href]", URL: "guide/"},
		{Element: "a[href]", URL: "https://example.org/x#frag"},
		{Element: "a[href]", URL: "https://forge.example.org/o/r/edit/main/docs/a.md", Edit: true},
		{Element: "a[href]", URL: "/edit-me", Edit: true},
		{Element: "img[src]", URL: "img/a.png"},
		{Element: "img[srcset]", URL: "img/a-1x.png"},
		{Element: "img[srcset]", URL: "img/a-2x.png"},
		{Element: "source[srcset]", URL: "img/b.webp"},
		{Element: "iframe[src]", URL: "https://video.example.org/embed/1"},
		{Element: "video[src]", URL: "v.mp4"},
		{Element: "video[poster]", URL: "poster.jpg"},
		{Element: "track[src]", URL: "subs.vtt"},
	}
	if !reflect.DeepEqual(got.Links, want) {
		t.Errorf("links:\n got %+v\nwant %+v", got.Links, want)
	}
	if !reflect.DeepEqual(got.IDs, []string{"install", "legacy"}) {
		t.Errorf("ids = %v, want install and legacy once each", got.IDs)
	}
}

func TestExtractToleratesBrokenHTML(t *testing.T) {
	got, err := Extract([]byte(`<p><a href="/a">unclosed <b><a href='/b'`))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Links) != 1 || got.Links[0].URL != "/a" {
		t.Fatalf("links = %+v", got.Links)
	}
}

func BenchmarkExtract(b *testing.B) {
	page := []byte(`<html><body>`)
	for i := 0; i < 200; i++ {
		page = append(page, []byte(`<p id="p`+string(rune('a'+i%26))+`">text <a href="https://example.org/page">link</a> <img src="/img/x.png"></p>`)...)
	}
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		if _, err := Extract(page); err != nil {
			b.Fatal(err)
		}
	}
}
