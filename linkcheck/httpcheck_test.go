package linkcheck

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// verdictServer is a loopback HTTP server with one route per kind of answer
// a link checker meets, counting the requests of each route by method.
type verdictServer struct {
	*httptest.Server
	mu    sync.Mutex
	calls map[string]int // "METHOD /path" → count
}

func (s *verdictServer) count(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[key]
}

func (s *verdictServer) total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.calls {
		n += c
	}
	return n
}

func startVerdictServer(t *testing.T) *verdictServer {
	t.Helper()
	mux := http.NewServeMux()
	ok := func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("fine")) }
	mux.HandleFunc("/ok", ok)
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/ok", http.StatusMovedPermanently) })
	mux.HandleFunc("/loop/a", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop/b", http.StatusFound) })
	mux.HandleFunc("/loop/b", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop/a", http.StatusFound) })
	mux.HandleFunc("/chain/", func(w http.ResponseWriter, r *http.Request) {
		n := strings.TrimPrefix(r.URL.Path, "/chain/")
		if n == "5" {
			ok(w, r)
			return
		}
		http.Redirect(w, r, "/chain/"+string(rune(n[0]+1)), http.StatusFound)
	})
	mux.HandleFunc("/missing", http.NotFound)
	mux.HandleFunc("/gone", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusGone) })
	mux.HandleFunc("/auth", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusUnauthorized) })
	mux.HandleFunc("/forbidden", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusForbidden) })
	mux.HandleFunc("/nohead", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		ok(w, r)
	})
	var busyOnce sync.Once
	mux.HandleFunc("/busy", func(w http.ResponseWriter, r *http.Request) {
		first := false
		busyOnce.Do(func() { first = true })
		if first {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		ok(w, r)
	})
	mux.HandleFunc("/always-busy", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	mux.HandleFunc("/busy-for-an-hour", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(50 * time.Millisecond)
		ok(w, r)
	})
	mux.HandleFunc("/broken-server", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusInternalServerError) })
	mux.HandleFunc("/reset", func(w http.ResponseWriter, _ *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	})
	return countingServer(t, mux)
}

// countingServer serves h on loopback, counting requests by method and
// path.
func countingServer(t *testing.T, h http.Handler) *verdictServer {
	t.Helper()
	s := &verdictServer{calls: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.calls[r.Method+" "+r.URL.Path]++
		s.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func testOptions(t *testing.T) Options {
	return Options{
		MaxConcurrent:       4,
		RequestTimeout:      300 * time.Millisecond,
		FollowRedirects:     true,
		MaxRedirects:        3,
		CacheTTL:            time.Hour,
		CacheTTLFailures:    time.Minute,
		TransientRetryDelay: 10 * time.Millisecond,
		Resolver:            startNXDomainServer(t),
	}.withDefaults()
}

// TestEveryVerdict runs every route through the scheduler (retries
// included) and checks each verdict.
func TestEveryVerdict(t *testing.T) {
	srv := startVerdictServer(t)
	want := map[string]struct {
		status Status
		code   int
		reason string
	}{
		"/ok":                          {StatusOK, 200, ""},
		"/moved":                       {StatusOK, 200, ""},
		"/loop/a":                      {StatusBroken, 302, ReasonRedirectLoop},
		"/chain/1":                     {StatusBroken, 302, ReasonTooManyRedirects},
		"/missing":                     {StatusBroken, 404, ReasonNotFound},
		"/gone":                        {StatusBroken, 410, ReasonGone},
		"/auth":                        {StatusNeedsAuth, 401, ReasonAuth},
		"/forbidden":                   {StatusNeedsAuth, 403, ReasonAuth},
		"/nohead":                      {StatusOK, 200, ""},
		"/busy":                        {StatusOK, 200, ""},
		"/always-busy":                 {StatusRateLimited, 429, ReasonRateLimited},
		"/busy-for-an-hour":            {StatusRateLimited, 429, ReasonRateLimited},
		"/hang":                        {StatusTransient, 0, ReasonTimeout},
		"/slow":                        {StatusOK, 200, ""},
		"/broken-server":               {StatusTransient, 500, ReasonServerError},
		"/reset":                       {StatusTransient, 0, ReasonConnection},
		"http://no-such-host.invalid/": {StatusBroken, 0, ReasonDNS},
	}
	var urls []string
	for path := range want {
		if strings.HasPrefix(path, "http") {
			urls = append(urls, path)
		} else {
			urls = append(urls, srv.URL+path)
		}
	}
	c := newHTTPChecker(testOptions(t))
	defer c.close()
	got := map[string]Verdict{}
	var mu sync.Mutex
	c.checkAll(context.Background(), urls, nil, func(u string, v Verdict, _ *pageAnchors) {
		mu.Lock()
		defer mu.Unlock()
		if _, dup := got[u]; dup {
			t.Errorf("%s settled twice", u)
		}
		got[u] = v
	})
	for path, w := range want {
		u := path
		if !strings.HasPrefix(path, "http") {
			u = srv.URL + path
		}
		v, ok := got[u]
		if !ok {
			t.Errorf("%s: no verdict", path)
			continue
		}
		if v.Status != w.status || v.Code != w.code || v.Reason != w.reason {
			t.Errorf("%s: got %s/%d/%s (%s), want %s/%d/%s", path, v.Status, v.Code, v.Reason, v.Error, w.status, w.code, w.reason)
		}
	}
	if got[srv.URL+"/moved"].FinalURL != srv.URL+"/ok" {
		t.Errorf("redirect target not recorded: %+v", got[srv.URL+"/moved"])
	}
	// HEAD first, GET only when HEAD is refused.
	if srv.count("HEAD /ok") != 2 || srv.count("GET /ok") != 0 {
		t.Errorf("/ok: %d HEAD, %d GET; want two HEADs (its own and /moved's) and no GET", srv.count("HEAD /ok"), srv.count("GET /ok"))
	}
	if srv.count("HEAD /nohead") != 1 || srv.count("GET /nohead") != 1 {
		t.Errorf("/nohead: %d HEAD, %d GET; want GET after the refused HEAD", srv.count("HEAD /nohead"), srv.count("GET /nohead"))
	}
	// 429 with Retry-After is retried; the retry succeeded.
	if n := srv.count("HEAD /busy"); n != 2 {
		t.Errorf("/busy asked %d times, want 2 (429, then the retry)", n)
	}
	if n := srv.count("HEAD /always-busy"); n != 3 {
		t.Errorf("/always-busy asked %d times, want 3 (first try and two retries)", n)
	}
	if n := srv.count("HEAD /busy-for-an-hour"); n != 1 {
		t.Errorf("/busy-for-an-hour asked %d times; a Retry-After beyond the limit must not be waited for", n)
	}
	// A transient failure is retried once.
	if n := srv.count("HEAD /broken-server") + srv.count("GET /broken-server"); n != 4 {
		t.Errorf("/broken-server asked %d times, want 4 (HEAD+GET, retried once)", n)
	}
}

func TestRedirectsNotFollowedWhenSwitchedOff(t *testing.T) {
	srv := startVerdictServer(t)
	opts := testOptions(t)
	opts.FollowRedirects = false
	c := newHTTPChecker(opts)
	defer c.close()
	v, _, _, err := c.check(context.Background(), srv.URL+"/moved", false)
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != StatusOK || v.Code != 301 || v.FinalURL != srv.URL+"/ok" {
		t.Fatalf("got %+v, want an OK 301 pointing at /ok", v)
	}
	if srv.count("HEAD /ok") != 0 {
		t.Fatal("the redirect was followed")
	}
}

func TestMaxRedirectsIsHonoured(t *testing.T) {
	srv := startVerdictServer(t)
	opts := testOptions(t)
	opts.MaxRedirects = 4 // /chain/1 → 2 → 3 → 4 → 5 is four redirects
	c := newHTTPChecker(opts)
	defer c.close()
	v, _, _, err := c.check(context.Background(), srv.URL+"/chain/1", false)
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != StatusOK || v.FinalURL != srv.URL+"/chain/5" {
		t.Fatalf("got %+v, want OK at /chain/5 with max_redirects 4", v)
	}
}

func TestCheckSendsUserAgent(t *testing.T) {
	var ua string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ua = r.UserAgent() }))
	defer srv.Close()
	c := newHTTPChecker(testOptions(t))
	defer c.close()
	if _, _, _, err := c.check(context.Background(), srv.URL, false); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ua, "docweave-linkcheck/") {
		t.Fatalf("user agent %q", ua)
	}
}

func TestInterleaveByHost(t *testing.T) {
	got := interleaveByHost([]string{"http://a/1", "http://a/2", "http://a/3", "http://b/1", "http://c/1", "http://b/2"})
	want := []string{"http://a/1", "http://b/1", "http://c/1", "http://a/2", "http://b/2", "http://a/3"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("got %v, want %v", got, want)
	}
}
