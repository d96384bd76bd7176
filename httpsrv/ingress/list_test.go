package ingress

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/docweave/docweave/ingress"
)

func TestListReturnsTheSnapshot(t *testing.T) {
	s := startServer(t, "")
	resp, body := s.get(t, PathIngresses, bearer(keyA))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	snap := s.listing.snap.Load()
	if !bytes.Equal(body, snap.Body) {
		t.Fatal("body differs from the snapshot's")
	}
	var list ingress.HostsList
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Hosts) != 2 || list.Hosts[0].Host != "a.example.com" {
		t.Fatalf("hosts = %+v, want a.example.com first", list.Hosts)
	}
	for name, want := range map[string]string{
		"ETag":           snap.ETag,
		"Cache-Control":  "no-store",
		"Content-Type":   "application/json",
		"Vary":           "Accept-Encoding",
		"Content-Length": itoa(len(snap.Body)),
	} {
		if got := resp.Header.Get(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}

func TestListCacheControlOverride(t *testing.T) {
	s := startServer(t, "private, max-age=30")
	resp, _ := s.get(t, PathIngresses, bearer(keyA))
	etag := resp.Header.Get("ETag")
	if got := resp.Header.Get("Cache-Control"); got != "private, max-age=30" {
		t.Fatalf("Cache-Control on 200 = %q", got)
	}
	resp, _ = s.get(t, PathIngresses, with(bearer(keyA), "If-None-Match", etag))
	if resp.StatusCode != http.StatusNotModified || resp.Header.Get("Cache-Control") != "private, max-age=30" {
		t.Fatalf("304: status %d, Cache-Control %q", resp.StatusCode, resp.Header.Get("Cache-Control"))
	}
}

func TestListRevalidation(t *testing.T) {
	s := startServer(t, "")
	first, _ := s.get(t, PathIngresses, bearer(keyA))
	etag := first.Header.Get("ETag")
	weak := "W/" + etag

	cases := []struct {
		name        string
		ifNoneMatch []string
		want        int
	}{
		{"current tag", []string{etag}, 304},
		{"weak form of the current tag", []string{weak}, 304},
		{"star", []string{"*"}, 304},
		{"list containing the tag", []string{`"old", ` + etag + `, W/"older"`}, 304},
		{"tag on a second header line", []string{`"old"`, etag}, 304},
		{"list with empty elements", []string{` , ,` + etag + `,`}, 304},
		{"other tags only", []string{`"old", W/"older"`}, 200},
		{"tag without quotes", []string{etag[1 : len(etag)-1]}, 200},
		{"malformed list is ignored", []string{etag + ` garbage`}, 200},
		{"star mixed with tags is malformed", []string{`*, ` + etag}, 200},
		{"gzip tag while asking for identity", []string{first.Header.Get("ETag")[:len(etag)-1] + `-gzip"`}, 200},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := s.get(t, PathIngresses, with(bearer(keyA), "If-None-Match", tc.ifNoneMatch...))
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.want)
			}
			if resp.Header.Get("ETag") != etag || resp.Header.Get("Cache-Control") != "no-store" {
				t.Fatalf("ETag %q and Cache-Control %q must be sent with %d", resp.Header.Get("ETag"), resp.Header.Get("Cache-Control"), resp.StatusCode)
			}
			if tc.want == 304 && (len(body) != 0 || resp.Header.Get("Content-Type") != "") {
				t.Fatalf("304 carries a body (%d bytes) or a Content-Type", len(body))
			}
		})
	}

	t.Run("a new snapshot invalidates the old tag", func(t *testing.T) {
		s.listing.snap.Store(snapshotOf(t, "c.example.com"))
		resp, body := s.get(t, PathIngresses, with(bearer(keyA), "If-None-Match", etag))
		if resp.StatusCode != 200 || resp.Header.Get("ETag") == etag || !bytes.Contains(body, []byte("c.example.com")) {
			t.Fatalf("after a change: status %d, ETag %s", resp.StatusCode, resp.Header.Get("ETag"))
		}
	})
}

func TestListGzip(t *testing.T) {
	s := startServer(t, "")
	snap := s.listing.snap.Load()
	resp, raw := s.get(t, PathIngresses, with(bearer(keyA), "Accept-Encoding", "br;q=1, gzip;q=0.5"))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" || resp.Header.Get("ETag") != snap.GzipETag {
		t.Fatalf("status %d, encoding %q, ETag %q", resp.StatusCode, resp.Header.Get("Content-Encoding"), resp.Header.Get("ETag"))
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if !bytes.Equal(plain, snap.Body) {
		t.Fatal("gzip body does not decompress to the listing")
	}
	resp, _ = s.get(t, PathIngresses, with(with(bearer(keyA), "Accept-Encoding", "gzip"), "If-None-Match", snap.GzipETag))
	if resp.StatusCode != 304 || resp.Header.Get("ETag") != snap.GzipETag {
		t.Fatalf("revalidating the gzip tag: %d %q", resp.StatusCode, resp.Header.Get("ETag"))
	}
	resp, _ = s.get(t, PathIngresses, with(bearer(keyA), "Accept-Encoding", "gzip;q=0, *"))
	if resp.Header.Get("Content-Encoding") != "" {
		t.Fatal("gzip;q=0 must get identity")
	}
}

func TestListHead(t *testing.T) {
	s := startServer(t, "")
	resp, body := s.do(t, http.MethodHead, PathIngresses, bearer(keyA))
	snap := s.listing.snap.Load()
	if resp.StatusCode != 200 || len(body) != 0 || resp.Header.Get("ETag") != snap.ETag || resp.Header.Get("Content-Length") != itoa(len(snap.Body)) {
		t.Fatalf("HEAD: %d, %d body bytes, ETag %q, length %q", resp.StatusCode, len(body), resp.Header.Get("ETag"), resp.Header.Get("Content-Length"))
	}
}

func TestListNotReady(t *testing.T) {
	s := startServer(t, "")
	s.listing.snap.Store(nil)
	resp, body := s.get(t, PathIngresses, bearer(keyA))
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("status %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	assertError(t, body, CodeNotReady)
	// Unauthenticated callers learn nothing, not even readiness.
	resp, _ = s.get(t, PathIngresses, nil)
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("unauthenticated while not ready: %d, want 401", resp.StatusCode)
	}
}

func assertError(t *testing.T, body []byte, code ErrorCode) {
	t.Helper()
	var e Error
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("error body %q: %v", body, err)
	}
	if e.Code != code || e.Message == "" {
		t.Fatalf("error body %+v, want code %s and a message", e, code)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
