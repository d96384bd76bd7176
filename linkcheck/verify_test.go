package linkcheck

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docweave/docweave/report"
)

// movableClock is a clock tests move forward to expire cache entries.
type movableClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *movableClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *movableClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// testSite writes a small rendered site (public/ and content/) whose pages
// link to the verdict server, to each other and to things never checked.
func testSite(t *testing.T, ext string) Site {
	t.Helper()
	page := func(title, body string) string {
		return `<!DOCTYPE html><html><head><title>` + title + `</title><link rel="stylesheet" href="/css/site.css"></head><body>
<nav><a href="/">Home</a> <a href="/docs/handbook/">Handbook</a></nav>` + body + `</body></html>`
	}
	root := writeSite(t, map[string]string{
		"public/index.html":   page("Home", `<a href="/docs/handbook/guide/">Guide</a>`),
		"public/css/site.css": "body{}",
		"public/docs/handbook/index.html": page("Handbook", `<h2 id="intro">Intro</h2>
<a href="guide/#install">Install</a> <a href="`+ext+`/ok">ok</a> <a href="`+ext+`/missing">missing</a>`),
		"public/docs/handbook/guide/index.html": page("Guide", `<h2 id="install">Install</h2>
<a href="../#intro">intro</a> <a href="../#nowhere">bad fragment</a> <a href="../nope/">missing page</a>
<a href="`+ext+`/ok">ok again</a> <a href="`+ext+`/missing">missing again</a> <a href="`+ext+`/missing">and again</a>
<a href="`+ext+`/gone">gone</a> <a href="`+ext+`/forbidden">members only</a>
<a href="mailto:docs@example.org">mail</a> <a href="https://forge.example.org/o/handbook/edit/main/docs/guide.md">Edit this page</a>
<img src="img/diagram.png" alt="">`),
		"public/docs/handbook/guide/img/diagram.png": "png",
		"content/handbook/_index.md":                 "",
		"content/handbook/guide.md":                  "",
	})
	return Site{
		PublicDir:    filepath.Join(root, "public"),
		ContentDir:   filepath.Join(root, "content"),
		Repositories: []Repository{{Name: "handbook", Forge: "forgejo", ContentPath: "handbook", Roots: []string{"docs"}}},
	}
}

func verifyOptions(t *testing.T, clock *movableClock) Options {
	o := testOptions(t)
	o.SkipEditLinks = true
	o.Now = clock.now
	return o
}

func targetByURL(t *testing.T, res *Result, u string) *TargetResult {
	t.Helper()
	for _, tr := range res.Targets {
		if tr.Target.URL == u {
			return tr
		}
	}
	t.Fatalf("no target %s", u)
	return nil
}

func TestVerifySite(t *testing.T) {
	srv := startVerdictServer(t)
	site := testSite(t, srv.URL)
	cache, _ := openTestCache(t)
	clock := &movableClock{t: time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)}
	res, err := NewVerifier(verifyOptions(t, clock), cache).Verify(context.Background(), site, "b1")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Status{
		"/":                                    StatusOK,
		"/css/site.css":                        StatusOK,
		"/docs/handbook/":                      StatusOK,
		"/docs/handbook/guide/":                StatusOK,
		"/docs/handbook/guide/#install":        StatusOK,
		"/docs/handbook/#intro":                StatusOK,
		"/docs/handbook/#nowhere":              StatusBroken,
		"/docs/handbook/nope/":                 StatusBroken,
		"/docs/handbook/guide/img/diagram.png": StatusOK,
		srv.URL + "/ok":                        StatusOK,
		srv.URL + "/missing":                   StatusBroken,
		srv.URL + "/gone":                      StatusBroken,
		srv.URL + "/forbidden":                 StatusNeedsAuth,
		"mailto:docs@example.org":              StatusSkipped,
		"https://forge.example.org/o/handbook/edit/main/docs/guide.md": StatusSkipped,
	}
	if len(res.Targets) != len(want) {
		var got []string
		for _, tr := range res.Targets {
			got = append(got, tr.Target.URL)
		}
		t.Fatalf("%d targets, want %d: %v", len(res.Targets), len(want), got)
	}
	for u, status := range want {
		if tr := targetByURL(t, res, u); tr.Verdict.Status != status {
			t.Errorf("%s: %s (%s), want %s", u, tr.Verdict.Status, tr.Verdict.Error, status)
		}
	}
	// One URL is requested once per run, however many pages use it.
	if n := srv.count("HEAD /missing") + srv.count("GET /missing"); n != 2 {
		t.Errorf("/missing requested %d times, want one HEAD and one GET", n)
	}
	if n := srv.count("HEAD /ok"); n != 1 {
		t.Errorf("/ok requested %d times, want once", n)
	}
	if tr := targetByURL(t, res, srv.URL+"/ok"); tr.Pages != 2 {
		t.Errorf("/ok is on %d pages, want 2", tr.Pages)
	}
	// Broken occurrences: one per (page, target), mapped to the source.
	var got []string
	for _, o := range res.Broken {
		got = append(got, fmt.Sprintf("%s %s %s %s %s", o.Page.File, o.Page.SourceFile, o.Page.Repository, o.Element, o.Target.Target.URL))
	}
	wantBroken := []string{
		"docs/handbook/guide/index.html docs/guide.md handbook a[href] /docs/handbook/#nowhere",
		"docs/handbook/guide/index.html docs/guide.md handbook a[href] /docs/handbook/nope/",
		"docs/handbook/guide/index.html docs/guide.md handbook a[href] " + srv.URL + "/gone",
		"docs/handbook/guide/index.html docs/guide.md handbook a[href] " + srv.URL + "/missing",
		"docs/handbook/index.html docs/_index.md handbook a[href] " + srv.URL + "/missing",
	}
	if strings.Join(got, "\n") != strings.Join(wantBroken, "\n") {
		t.Errorf("broken occurrences:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantBroken, "\n"))
	}
	f := res.Figures
	if f.Status != report.LinksComplete || f.Checked != 13 || f.Broken != 4 || f.NeedsAuth != 1 || f.Skipped != 2 ||
		f.External != 4 || f.Internal != 9 || f.Cached != 0 || f.Pages != 3 || f.PagesParsed != 3 || f.BrokenEvents != 5 || len(f.BrokenLinks) != 5 {
		t.Errorf("figures: %+v", f)
	}
	if f.Requests != srv.total() {
		t.Errorf("figures count %d requests, the server saw %d", f.Requests, srv.total())
	}
	for _, o := range res.Broken {
		h := o.Target.History
		if h == nil || h.Failures != 1 || !h.FirstSeen.Equal(clock.t) || h.LastBuild != "b1" {
			t.Errorf("%s: history %+v", o.Target.Target.URL, h)
		}
	}
}

// TestSecondRunWithinTTLMakesNoRequests: everything cacheable comes from the
// cache and unchanged pages are not parsed again.
func TestSecondRunWithinTTLMakesNoRequests(t *testing.T) {
	srv := startVerdictServer(t)
	site := testSite(t, srv.URL)
	cache, _ := openTestCache(t)
	clock := &movableClock{t: time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)}
	v := NewVerifier(verifyOptions(t, clock), cache)
	if _, err := v.Verify(context.Background(), site, "b1"); err != nil {
		t.Fatal(err)
	}
	before := srv.total()
	clock.advance(30 * time.Second) // well within both TTLs
	res, err := v.Verify(context.Background(), site, "b2")
	if err != nil {
		t.Fatal(err)
	}
	if srv.total() != before || res.Figures.Requests != 0 {
		t.Fatalf("second run made %d requests (figures say %d); want none", srv.total()-before, res.Figures.Requests)
	}
	if res.Figures.Cached != 4 || res.Figures.PagesParsed != 0 || res.Figures.Broken != 4 {
		t.Fatalf("figures of the cached run: %+v", res.Figures)
	}
	if tr := targetByURL(t, res, srv.URL+"/missing"); tr.History.Failures != 2 {
		t.Fatalf("a link broken in two verifications in a row counts %d failures", tr.History.Failures)
	}
}

// TestFailuresExpireBeforeSuccesses: after the failure TTL only failures
// are checked again; after the success TTL everything is.
func TestFailuresExpireBeforeSuccesses(t *testing.T) {
	srv := startVerdictServer(t)
	site := testSite(t, srv.URL)
	cache, _ := openTestCache(t)
	clock := &movableClock{t: time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)}
	opts := verifyOptions(t, clock) // successes 1h, failures 1m
	v := NewVerifier(opts, cache)
	if _, err := v.Verify(context.Background(), site, "b1"); err != nil {
		t.Fatal(err)
	}
	okBefore, missingBefore, authBefore := srv.count("HEAD /ok"), srv.count("HEAD /missing"), srv.count("HEAD /forbidden")

	clock.advance(2 * time.Minute)
	res, err := v.Verify(context.Background(), site, "b2")
	if err != nil {
		t.Fatal(err)
	}
	if srv.count("HEAD /ok") != okBefore {
		t.Error("a success was rechecked within cache_ttl")
	}
	if srv.count("HEAD /missing") != missingBefore+1 || srv.count("HEAD /forbidden") != authBefore+1 {
		t.Error("failures were not rechecked after cache_ttl_failures")
	}
	if res.Figures.Cached != 1 {
		t.Errorf("cached = %d, want 1 (only the success)", res.Figures.Cached)
	}

	clock.advance(2 * time.Hour)
	if _, err := v.Verify(context.Background(), site, "b3"); err != nil {
		t.Fatal(err)
	}
	if srv.count("HEAD /ok") != okBefore+1 {
		t.Error("a success was not rechecked after cache_ttl")
	}
}

func TestVerifyExternalOnlySkipsInternalLinks(t *testing.T) {
	srv := startVerdictServer(t)
	site := testSite(t, srv.URL)
	clock := &movableClock{t: time.Now()}
	opts := verifyOptions(t, clock)
	opts.VerifyExternalOnly = true
	opts.SkipEditLinks = false
	res, err := NewVerifier(opts, nil).Verify(context.Background(), site, "b1")
	if err != nil {
		t.Fatal(err)
	}
	if res.Figures.Internal != 0 || res.Figures.External != 5 {
		t.Fatalf("figures: %+v", res.Figures)
	}
	if tr := targetByURL(t, res, "/docs/handbook/nope/"); tr.Verdict.Status != StatusSkipped || tr.Verdict.Reason != ReasonInternalOff {
		t.Fatalf("internal link: %+v", tr.Verdict)
	}
	// skip_edit_links off: the edit link is checked (and its host does not
	// exist in the test resolver).
	if tr := targetByURL(t, res, "https://forge.example.org/o/handbook/edit/main/docs/guide.md"); tr.Verdict.Status != StatusBroken || tr.Verdict.Reason != ReasonDNS {
		t.Fatalf("edit link: %+v", tr.Verdict)
	}
}

// TestUnreachableCacheDegradesButVerifies: with the broker gone the
// verdicts are still complete, and the figures say the cache failed.
func TestUnreachableCacheDegradesButVerifies(t *testing.T) {
	srv := startVerdictServer(t)
	site := testSite(t, srv.URL)
	cache, broker := openTestCache(t)
	broker.Close()
	clock := &movableClock{t: time.Now()}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := NewVerifier(verifyOptions(t, clock), cache).Verify(ctx, site, "b1")
	if err != nil {
		t.Fatal(err)
	}
	if res.Figures.Status != report.LinksDegraded || res.Figures.CacheErrors == 0 || res.Figures.Error == "" {
		t.Fatalf("figures: %+v", res.Figures)
	}
	if res.Figures.Broken != 4 || res.Figures.Checked != 13 {
		t.Fatalf("verdicts incomplete without the cache: %+v", res.Figures)
	}
}

func TestVerifyMissingSiteIsAnError(t *testing.T) {
	_, err := NewVerifier(Options{}, nil).Verify(context.Background(), Site{PublicDir: filepath.Join(t.TempDir(), "public")}, "b")
	if err == nil || !strings.Contains(err.Error(), "public") {
		t.Fatalf("want an error naming the site directory, got %v", err)
	}
}
