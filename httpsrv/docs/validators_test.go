package docs

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestETagAndIfNoneMatchGive304(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	writeSite(t, public, testSite)
	srv := startServer(t, public)

	for _, enc := range []string{"", "Accept-Encoding: gzip"} {
		first := get(t, srv.URL+"/docs/guide/", enc)
		etag := first.header.Get("ETag")
		if first.status != http.StatusOK || len(etag) < 10 || etag[0] != '"' {
			t.Fatalf("(%s) first GET: %d ETag %q, want 200 and a strong ETag", enc, first.status, etag)
		}
		if first.header.Get("Last-Modified") == "" {
			t.Fatalf("(%s) first GET: no Last-Modified", enc)
		}
		again := get(t, srv.URL+"/docs/guide/", enc, "If-None-Match: "+etag)
		if again.status != http.StatusNotModified || again.body != "" {
			t.Fatalf("(%s) If-None-Match %s: %d %q, want 304 without body", enc, etag, again.status, again.body)
		}
		if again.header.Get("ETag") != etag {
			t.Errorf("(%s) 304 ETag %q, want %q", enc, again.header.Get("ETag"), etag)
		}
		other := get(t, srv.URL+"/docs/guide/", enc, `If-None-Match: "something-else"`)
		if other.status != http.StatusOK {
			t.Fatalf("(%s) non-matching If-None-Match: %d, want 200", enc, other.status)
		}
	}
}

func TestGzipAndIdentityHaveDifferentETags(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	writeSite(t, public, testSite)
	srv := startServer(t, public)
	plain := get(t, srv.URL+"/docs/guide/").header.Get("ETag")
	gz := get(t, srv.URL+"/docs/guide/", "Accept-Encoding: gzip").header.Get("ETag")
	if plain == gz || plain == "" || gz == "" {
		t.Fatalf("identity ETag %q, gzip ETag %q: want two different strong tags", plain, gz)
	}
}

func TestIfModifiedSinceGives304(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	writeSite(t, public, testSite)
	srv := startServer(t, public)

	first := get(t, srv.URL+"/search/index.json")
	lm := first.header.Get("Last-Modified")
	r := get(t, srv.URL+"/search/index.json", "If-Modified-Since: "+lm)
	if r.status != http.StatusNotModified {
		t.Fatalf("If-Modified-Since %s: %d, want 304", lm, r.status)
	}
	past := time.Now().Add(-48 * time.Hour).UTC().Format(http.TimeFormat)
	if err := os.Chtimes(filepath.Join(public, "search", "index.json"), time.Now(), time.Now()); err != nil {
		t.Fatal(err)
	}
	if r := get(t, srv.URL+"/search/index.json", "If-Modified-Since: "+past); r.status != http.StatusOK {
		t.Fatalf("If-Modified-Since two days ago: %d, want 200", r.status)
	}
}

func TestETagChangesWithContent(t *testing.T) {
	public := filepath.Join(t.TempDir(), "public")
	writeSite(t, public, testSite)
	srv := startServer(t, public)

	before := get(t, srv.URL+"/").header.Get("ETag")
	// Same name, same size, same modification time: only the content (and
	// the inode) differ, as with the same page of two successive builds.
	p := filepath.Join(public, "index.html")
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	replacement := bytes.ToUpper([]byte(testSite["index.html"]))
	tmp := p + ".new"
	if err := os.WriteFile(tmp, replacement, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(tmp, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
	after := get(t, srv.URL+"/")
	if after.body != string(replacement) || after.header.Get("ETag") == before {
		t.Fatalf("after replacing the file: body %q ETag %q (before %q), want new body and new ETag", after.body, after.header.Get("ETag"), before)
	}
	if r := get(t, srv.URL+"/", "If-None-Match: "+before); r.status != http.StatusOK {
		t.Fatalf("old ETag after content change: %d, want 200", r.status)
	}
}

func TestEtagListMatches(t *testing.T) {
	cases := []struct {
		list, etag string
		want       bool
	}{
		{`"a"`, `"a"`, true},
		{`"b", "a"`, `"a"`, true},
		{`W/"a"`, `"a"`, true},
		{`*`, `"a"`, true},
		{`"b"`, `"a"`, false},
		{`"a-gz"`, `"a"`, false},
	}
	for _, c := range cases {
		if got := etagListMatches(c.list, c.etag); got != c.want {
			t.Errorf("etagListMatches(%q, %q) = %v, want %v", c.list, c.etag, got, c.want)
		}
	}
}

func TestMetaCacheResetsWhenFull(t *testing.T) {
	c := newMetaCache()
	for i := 0; i < maxCachedFiles+1; i++ {
		c.store(fileKey{name: "f", size: int64(i)}, fileMeta{etag: `"x"`})
	}
	if n := len(c.entries); n != 1 {
		t.Fatalf("entries after overflow = %d, want 1 (reset, then the newest)", n)
	}
	c.store(fileKey{name: "g"}, fileMeta{etag: `"y"`, gz: make([]byte, 10)})
	if c.gzMem != 10 {
		t.Fatalf("gzMem = %d, want 10", c.gzMem)
	}
	c.store(fileKey{name: "g"}, fileMeta{etag: `"y"`, gz: make([]byte, 4)})
	if c.gzMem != 4 {
		t.Fatalf("gzMem after replacing an entry = %d, want 4", c.gzMem)
	}
}
