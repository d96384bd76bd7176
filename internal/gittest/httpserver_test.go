package gittest

import (
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

func TestHTTPServerServesCloneAndLaterCommits(t *testing.T) {
	r := NewRepo(t, map[string]string{"docs/a.md": "a"})
	s := NewHTTPServer(t, HTTPOptions{})
	url := s.Add(t, "org/docs", r)
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/org/docs.git") {
		t.Fatalf("clone URL = %q", url)
	}
	dst := filepath.Join(t.TempDir(), "c")
	Git(t, t.TempDir(), "clone", "-q", url, dst)
	if got := Git(t, dst, "rev-parse", "HEAD"); got != r.Head(t) {
		t.Fatalf("cloned %s, want %s", got, r.Head(t))
	}
	next := r.Commit(t, map[string]string{"docs/b.md": "b"}, "more")
	if got := Git(t, t.TempDir(), "ls-remote", url, "refs/heads/main"); !strings.HasPrefix(got, next) {
		t.Fatalf("served repo does not reflect the new commit: %q, want %s", got, next)
	}
	if s.Requests() == 0 {
		t.Fatal("Requests() did not count the clone")
	}
}

func TestHTTPServerShallowClone(t *testing.T) {
	r := NewRepo(t, map[string]string{"a.md": "1"})
	r.Commit(t, map[string]string{"a.md": "2"}, "two")
	r.Commit(t, map[string]string{"a.md": "3"}, "three")
	url := NewHTTPServer(t, HTTPOptions{}).Add(t, "docs", r)
	dst := filepath.Join(t.TempDir(), "c")
	Git(t, t.TempDir(), "clone", "-q", "--depth", "1", url, dst)
	if got := Git(t, dst, "rev-list", "--count", "HEAD"); got != "1" {
		t.Fatalf("shallow clone has %s commits", got)
	}
}

func TestHTTPServerMissingRepositoryIs404(t *testing.T) {
	s := NewHTTPServer(t, HTTPOptions{})
	resp, err := http.Get(s.URL() + "/nope.git/info/refs?service=git-upload-pack")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("status = %d, want 404", resp.StatusCode)
	}
}

func TestHTTPServerBasicAuth(t *testing.T) {
	r := NewRepo(t, map[string]string{"a.md": "a"})
	s := NewHTTPServer(t, HTTPOptions{BasicUser: "alice", BasicPassword: "s3cret"})
	url := s.Add(t, "docs", r)
	refs := url + "/info/refs?service=git-upload-pack"
	cases := []struct {
		name       string
		user, pass string
		want       int
	}{
		{"none", "", "", http.StatusUnauthorized},
		{"wrong password", "alice", "nope", http.StatusUnauthorized},
		{"right", "alice", "s3cret", http.StatusOK},
	}
	for _, c := range cases {
		req, _ := http.NewRequest(http.MethodGet, refs, nil)
		if c.user != "" {
			req.SetBasicAuth(c.user, c.pass)
		}
		if got := status(t, req); got != c.want {
			t.Errorf("%s: status %d, want %d", c.name, got, c.want)
		}
	}
	// The real git client, credentials in the URL.
	authURL := strings.Replace(url, "http://", "http://alice:s3cret@", 1)
	Git(t, t.TempDir(), "ls-remote", authURL)
}

func TestHTTPServerTokenAuth(t *testing.T) {
	r := NewRepo(t, map[string]string{"a.md": "a"})
	s := NewHTTPServer(t, HTTPOptions{Token: "tok-123"})
	refs := s.Add(t, "docs", r) + "/info/refs?service=git-upload-pack"

	asPassword, _ := http.NewRequest(http.MethodGet, refs, nil)
	asPassword.SetBasicAuth("x-access-token", "tok-123")
	bearer, _ := http.NewRequest(http.MethodGet, refs, nil)
	bearer.Header.Set("Authorization", "Bearer tok-123")
	wrong, _ := http.NewRequest(http.MethodGet, refs, nil)
	wrong.SetBasicAuth("x-access-token", "tok-999")
	if got := status(t, asPassword); got != http.StatusOK {
		t.Errorf("token as basic password: %d", got)
	}
	if got := status(t, bearer); got != http.StatusOK {
		t.Errorf("bearer token: %d", got)
	}
	if got := status(t, wrong); got != http.StatusUnauthorized {
		t.Errorf("wrong token: %d", got)
	}
}

func TestHTTPServerFailFirstStatus(t *testing.T) {
	r := NewRepo(t, map[string]string{"a.md": "a"})
	s := NewHTTPServer(t, HTTPOptions{FailFirst: 2, FailStatus: http.StatusTooManyRequests})
	refs := s.Add(t, "docs", r) + "/info/refs?service=git-upload-pack"
	var got []int
	for range 3 {
		req, _ := http.NewRequest(http.MethodGet, refs, nil)
		got = append(got, status(t, req))
	}
	if got[0] != 429 || got[1] != 429 || got[2] != 200 {
		t.Fatalf("statuses = %v, want [429 429 200]", got)
	}
	if s.Requests() != 3 {
		t.Fatalf("Requests() = %d, want 3", s.Requests())
	}
}

func TestHTTPServerFailFirstDefaultsTo503(t *testing.T) {
	s := NewHTTPServer(t, HTTPOptions{FailFirst: 1})
	req, _ := http.NewRequest(http.MethodGet, s.URL()+"/x.git/info/refs", nil)
	if got := status(t, req); got != http.StatusServiceUnavailable {
		t.Fatalf("status = %d, want 503", got)
	}
}

func TestHTTPServerFailReset(t *testing.T) {
	r := NewRepo(t, map[string]string{"a.md": "a"})
	s := NewHTTPServer(t, HTTPOptions{FailFirst: 1, FailReset: true})
	refs := s.Add(t, "docs", r) + "/info/refs?service=git-upload-pack"
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	_, err := client.Get(refs)
	if err == nil {
		t.Fatal("first request should fail with a reset connection")
	}
	if !strings.Contains(err.Error(), "reset") && !strings.Contains(err.Error(), "EOF") {
		t.Fatalf("error %v does not look like a reset", err)
	}
	resp, err := client.Get(refs)
	if err != nil {
		t.Fatalf("second request: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("second request status %d", resp.StatusCode)
	}
}

func TestAddRejectsEscapingNames(t *testing.T) {
	r := NewRepo(t, nil)
	s := NewHTTPServer(t, HTTPOptions{})
	fake := &recordingTB{TB: t}
	func() {
		defer func() { _ = recover() }()
		s.Add(fake, "../outside", r)
	}()
	if !strings.Contains(fake.fatal, "plain relative path") {
		t.Fatalf("want a name error, got %q", fake.fatal)
	}
}

func status(t *testing.T, req *http.Request) int {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestHTTPServerAcceptsChunkedRequests: the git command line sends large
// requests (a sparse checkout's thousands of wanted blobs) with a chunked
// body, which CGI cannot take; the server buffers them.
func TestHTTPServerAcceptsChunkedRequests(t *testing.T) {
	r := NewRepo(t, map[string]string{"a.md": "1"})
	url := NewHTTPServer(t, HTTPOptions{}).Add(t, "docs", r)
	want := "want " + r.Head(t) + "\n"
	body := fmt.Sprintf("%04x%s0000%04xdone\n", len(want)+4, want, len("done\n")+4)
	pr, pw := io.Pipe()
	go func() {
		_, _ = pw.Write([]byte(body))
		pw.Close()
	}()
	req, _ := http.NewRequest(http.MethodPost, url+"/git-upload-pack", pr) // no length: sent chunked
	req.Header.Set("Content-Type", "application/x-git-upload-pack-request")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(out), "PACK") {
		t.Fatalf("chunked upload-pack request: %d %q", resp.StatusCode, out)
	}
}
