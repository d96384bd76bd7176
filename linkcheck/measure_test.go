package linkcheck

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// slowLinkServer answers every request after a fixed delay, counting
// requests and the most it had in flight at once.
type slowLinkServer struct {
	*httptest.Server
	requests atomic.Int64
	inFlight atomic.Int64
	mu       sync.Mutex
	maxSeen  int64
}

func startSlowLinkServer(tb testing.TB, delay time.Duration) *slowLinkServer {
	s := &slowLinkServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		n := s.inFlight.Add(1)
		s.mu.Lock()
		if n > s.maxSeen {
			s.maxSeen = n
		}
		s.mu.Unlock()
		time.Sleep(delay)
		s.inFlight.Add(-1)
		w.Write([]byte("ok"))
	}))
	tb.Cleanup(s.Close)
	return s
}

// writeLinkFarm writes a site of pages, each linking to perPage unique
// external URLs of base: pages × perPage links in all.
func writeLinkFarm(tb testing.TB, base string, pages, perPage int) string {
	dir := tb.TempDir()
	var index strings.Builder
	index.WriteString("<!DOCTYPE html><html><body><h1>Link farm</h1><ul>")
	for p := 0; p < pages; p++ {
		var b strings.Builder
		fmt.Fprintf(&b, "<!DOCTYPE html><html><body><h1 id=\"top\">Page %d</h1><a href=\"/\">home</a><ul>", p)
		for i := 0; i < perPage; i++ {
			fmt.Fprintf(&b, "<li><a href=\"%s/link/%d/%d\">link %d</a></li>", base, p, i, i)
		}
		b.WriteString("</ul></body></html>")
		name := fmt.Sprintf("docs/page%d/index.html", p)
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
		fmt.Fprintf(&index, "<li><a href=\"/docs/page%d/\">page %d</a></li>", p, p)
	}
	index.WriteString("</ul></body></html>")
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte(index.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return dir
}

func TestMaxConcurrentBoundsRequestsInFlight(t *testing.T) {
	srv := startSlowLinkServer(t, 5*time.Millisecond)
	site := Site{PublicDir: writeLinkFarm(t, srv.URL, 4, 25)}
	res, err := NewVerifier(Options{MaxConcurrent: 3, RequestTimeout: 5 * time.Second}, nil).Verify(context.Background(), site, "b")
	if err != nil {
		t.Fatal(err)
	}
	if res.Figures.External != 100 || res.Figures.Broken != 0 || srv.requests.Load() != 100 {
		t.Fatalf("figures %+v, server saw %d requests", res.Figures, srv.requests.Load())
	}
	if srv.maxSeen > 3 {
		t.Fatalf("%d requests in flight at once with max_concurrent 3", srv.maxSeen)
	}
}

// BenchmarkVerify2000ExternalLinks is the measurement of issue 6: 2,000
// unique external links on a loopback server answering after 20 ms, with
// max_concurrent 10 and rate_limit_delay 0 — a bound of 500 links/s. A cold
// run (empty cache) is compared with that bound; a warm run (same site,
// cache filled) must make no request. When LINKINATOR names a linkinator
// binary, it checks the same site against the same server in the same run.
//
//	go test ./linkcheck -run '^$' -bench Verify2000 -benchtime 1x
//	LINKINATOR=/path/to/node_modules/.bin/linkinator go test ./linkcheck -run '^$' -bench Verify2000 -benchtime 1x
func BenchmarkVerify2000ExternalLinks(b *testing.B) {
	const links, perPage, concurrency = 2000, 100, 10
	const delay = 20 * time.Millisecond
	bound := float64(concurrency) / delay.Seconds() // links/s
	srv := startSlowLinkServer(b, delay)
	site := Site{PublicDir: writeLinkFarm(b, srv.URL, links/perPage, perPage)}
	opts := Options{MaxConcurrent: concurrency, RateLimitDelay: 0, RequestTimeout: 10 * time.Second,
		FollowRedirects: true, MaxRedirects: 3, CacheTTL: time.Hour, CacheTTLFailures: time.Hour}

	var cold, warm time.Duration
	var warmRequests int64
	for b.Loop() {
		b.StopTimer()
		cache, _ := openTestCache(b)
		v := NewVerifier(opts, cache)
		before := srv.requests.Load()
		b.StartTimer()
		start := time.Now()
		res, err := v.Verify(context.Background(), site, "cold")
		cold = time.Since(start)
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if res.Figures.External != links || res.Figures.Broken != 0 || srv.requests.Load()-before != links {
			b.Fatalf("cold run: %+v, %d requests", res.Figures, srv.requests.Load()-before)
		}
		before = srv.requests.Load()
		start = time.Now()
		res, err = v.Verify(context.Background(), site, "warm")
		warm = time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		warmRequests = srv.requests.Load() - before
		if res.Figures.Cached != links {
			b.Fatalf("warm run: %+v", res.Figures)
		}
		b.StartTimer()
	}
	rate := float64(links) / cold.Seconds()
	b.ReportMetric(rate, "cold_links/s")
	b.ReportMetric(100*rate/bound, "cold_%_of_bound")
	b.ReportMetric(warm.Seconds(), "warm_s")
	b.ReportMetric(float64(warmRequests), "warm_requests")
	b.ReportMetric(float64(srv.maxSeen), "max_in_flight")
	b.Logf("docweave: cold %s (%.0f links/s, %.1f%% of the %.0f links/s bound), warm %s with %d requests, at most %d in flight",
		cold.Round(time.Millisecond), rate, 100*rate/bound, bound, warm.Round(time.Millisecond), warmRequests, srv.maxSeen)

	if bin := os.Getenv("LINKINATOR"); bin != "" {
		before := srv.requests.Load()
		start := time.Now()
		cmd := exec.Command(bin, site.PublicDir, "--recurse", "--concurrency", fmt.Sprint(concurrency), "--timeout", "10000", "--format", "json")
		out, err := cmd.Output()
		took := time.Since(start)
		if err != nil {
			b.Fatalf("linkinator: %v\n%s", err, out)
		}
		requests := srv.requests.Load() - before
		ok := strings.Count(string(out), `"state": "OK"`) + strings.Count(string(out), `"state":"OK"`)
		b.ReportMetric(took.Seconds(), "linkinator_s")
		b.ReportMetric(float64(links)/took.Seconds(), "linkinator_links/s")
		b.ReportMetric(float64(requests), "linkinator_requests")
		b.Logf("linkinator: %s (%.0f links/s), %d requests to the link server, %d links reported OK (site pages included)",
			took.Round(time.Millisecond), float64(links)/took.Seconds(), requests, ok)
	}
}
