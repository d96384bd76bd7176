package linkcheck

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testPageLimit is the read limit of the tests: the large page exceeds it.
const testPageLimit = 4096

// startFragmentServer is a loopback server of pages as external sites
// serve them: a plain page with heading ids and an old-style <a name>, a
// page whose headings a script makes, forge file pages with GitHub's
// user-content ids (as attributes, and as JSON inside a script), a page
// larger than the test's read limit, a PDF and a missing page.
func startFragmentServer(t *testing.T) *verdictServer {
	t.Helper()
	pages := map[string]string{
		"/manual": `<!DOCTYPE html><html><head><title>Manual</title><script src="/analytics.js"></script></head><body>
<h1 id="manual">Manual</h1><h2 id="installing">Installing</h2><p><a name="legacy-anchor"></a>Old anchor.</p>
<h2 id="tuning">Tuning</h2></body></html>`,
		"/app": `<!DOCTYPE html><html><head><title>App</title></head><body><div id="root"></div>
<script src="/bundle.js"></script></body></html>`,
		"/owner/repo/blob/main/README.md": `<!DOCTYPE html><html><head><script src="/forge.js"></script></head><body><article class="markdown-body">
<div class="markdown-heading"><h2 class="heading-element">Setup</h2><a id="user-content-setup" class="anchor" href="#setup"></a></div>
</article></body></html>`,
		"/owner/repo/blob/main/USAGE.md": `<!DOCTYPE html><html><head></head><body><div id="repo-content"></div>
<script type="application/json" data-target="react-app.embeddedData">{"payload":{"blob":{"richText":"<h2><a id=\"user-content-usage\" class=\"anchor\" href=\"#usage\"></a>Usage</h2>"}}}</script>
<script src="/forge.js"></script></body></html>`,
		"/big": `<!DOCTYPE html><html><body><h2 id="early">Early</h2><p>` + strings.Repeat("filler text ", testPageLimit/6) + `</p><h2 id="late">Late</h2></body></html>`,
	}
	return countingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if page, ok := pages[r.URL.Path]; ok {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(page))
			return
		}
		if r.URL.Path == "/guide.pdf" {
			w.Header().Set("Content-Type", "application/pdf")
			_, _ = w.Write([]byte("%PDF-1.4"))
			return
		}
		http.NotFound(w, r)
	}))
}

// fragmentSite is a rendered site whose two pages link to the server's
// pages, several fragments of one page among them.
func fragmentSite(t *testing.T, ext string) Site {
	t.Helper()
	root := writeSite(t, map[string]string{
		"public/docs/notes/index.html": `<html><body>
<a href="` + ext + `/manual">manual</a> <a href="` + ext + `/manual#installing">install</a>
<a href="` + ext + `/manual#legacy-anchor">old</a> <a href="` + ext + `/manual#uninstalling">gone heading</a>
<a href="` + ext + `/app#settings">app</a> <a href="` + ext + `/app#/settings/profile">route</a>
<a href="` + ext + `/owner/repo/blob/main/README.md#setup">readme</a>
<a href="` + ext + `/owner/repo/blob/main/USAGE.md#usage">usage</a> <a href="` + ext + `/owner/repo/blob/main/USAGE.md#flags">flags</a>
<a href="` + ext + `/big#early">early</a> <a href="` + ext + `/big#late">late</a>
<a href="` + ext + `/guide.pdf#page=2">pdf</a> <a href="` + ext + `/nowhere#intro">missing page</a>
</body></html>`,
		"public/docs/more/index.html": `<html><body><a href="` + ext + `/manual#tuning">tuning</a> <a href="` + ext + `/manual#uninstalling">again</a></body></html>`,
	})
	return Site{PublicDir: filepath.Join(root, "public")}
}

func fragmentOptions(t *testing.T, clock *movableClock) Options {
	o := testOptions(t)
	o.CheckFragments = true
	o.MaxPageBytes = testPageLimit
	o.Now = clock.now
	return o
}

// With check_fragments, an external link's fragment is looked up among
// the ids of the page: a missing one is broken (missing_fragment), told
// apart from a page that answers with an HTTP error (not_found); a page
// whose headings scripts make, a PDF and the unread end of a large page
// are unverifiable, not broken; GitHub's user-content- ids answer the
// README's own anchors; a router address (#/…) is no fragment. Each page
// is requested once, however many of its fragments are linked, and a
// second run answers every fragment from the cache.
func TestExternalFragmentsAreChecked(t *testing.T) {
	srv := startFragmentServer(t)
	site := fragmentSite(t, srv.URL)
	cache, _ := openTestCache(t)
	clock := &movableClock{t: time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)}
	v := NewVerifier(fragmentOptions(t, clock), cache)
	res, err := v.Verify(context.Background(), site, "b1")
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		status Status
		reason string
	}
	wants := map[string]want{
		"/manual":                               {StatusOK, ""},
		"/manual#installing":                    {StatusOK, ""},
		"/manual#legacy-anchor":                 {StatusOK, ""},
		"/manual#tuning":                        {StatusOK, ""},
		"/manual#uninstalling":                  {StatusBroken, ReasonMissingFragment},
		"/app#settings":                         {StatusUnverifiable, ReasonScriptedPage},
		"/app":                                  {StatusOK, ""},
		"/owner/repo/blob/main/README.md#setup": {StatusOK, ""},
		"/owner/repo/blob/main/USAGE.md#usage":  {StatusOK, ""},
		"/owner/repo/blob/main/USAGE.md#flags":  {StatusBroken, ReasonMissingFragment},
		"/big#early":                            {StatusOK, ""},
		"/big#late":                             {StatusUnverifiable, ReasonPageTooLarge},
		"/guide.pdf#page=2":                     {StatusUnverifiable, ReasonNotHTML},
		"/nowhere#intro":                        {StatusBroken, ReasonNotFound},
	}
	if len(res.Targets) != len(wants) {
		var got []string
		for _, tr := range res.Targets {
			got = append(got, tr.Target.URL)
		}
		t.Fatalf("%d targets, want %d: %v", len(res.Targets), len(wants), got)
	}
	for path, w := range wants {
		tr := targetByURL(t, res, srv.URL+path)
		if tr.Verdict.Status != w.status || tr.Verdict.Reason != w.reason {
			t.Errorf("%s: %s %s (%s), want %s %s", path, tr.Verdict.Status, tr.Verdict.Reason, tr.Verdict.Error, w.status, w.reason)
		}
	}
	for _, page := range []string{"/manual", "/app", "/big", "/owner/repo/blob/main/USAGE.md"} {
		if n, head := srv.count("GET "+page), srv.count("HEAD "+page); n != 1 || head != 0 {
			t.Errorf("%s: %d GET and %d HEAD requests, want the page read once", page, n, head)
		}
	}
	// Every broken occurrence says why: the two pages linking to the
	// missing heading, the forge page and the missing page.
	reasons := map[string]int{}
	for _, o := range res.Broken {
		reasons[o.Target.Verdict.Reason]++
	}
	if reasons[ReasonMissingFragment] != 3 || reasons[ReasonNotFound] != 1 || len(res.Broken) != 4 {
		t.Errorf("broken occurrences by reason: %v", reasons)
	}
	f := res.Figures
	if f.Unverifiable != 3 || f.Broken != 3 || f.External != 14 || f.Requests != srv.total() {
		t.Errorf("figures: %+v (server saw %d requests)", f, srv.total())
	}

	before := srv.total()
	clock.advance(30 * time.Second)
	again, err := v.Verify(context.Background(), site, "b2")
	if err != nil {
		t.Fatal(err)
	}
	if srv.total() != before {
		t.Errorf("the second run made %d requests, want none", srv.total()-before)
	}
	for path, w := range wants {
		if tr := targetByURL(t, again, srv.URL+path); tr.Verdict.Status != w.status || !tr.Cached {
			t.Errorf("second run, %s: %s (cached %v), want %s from the cache", path, tr.Verdict.Status, tr.Cached, w.status)
		}
	}
}

// Without check_fragments (the default) an external link is its page: the
// fragment is neither kept nor checked, and a HEAD request answers it.
func TestExternalFragmentsAreNotCheckedByDefault(t *testing.T) {
	srv := startFragmentServer(t)
	site := fragmentSite(t, srv.URL)
	clock := &movableClock{t: time.Now()}
	opts := fragmentOptions(t, clock)
	opts.CheckFragments = false
	res, err := NewVerifier(opts, nil).Verify(context.Background(), site, "b1")
	if err != nil {
		t.Fatal(err)
	}
	if tr := targetByURL(t, res, srv.URL+"/manual"); tr.Verdict.Status != StatusOK || tr.Pages != 2 {
		t.Errorf("/manual: %+v on %d pages", tr.Verdict, tr.Pages)
	}
	if res.Figures.Unverifiable != 0 || res.Figures.Broken != 1 || srv.count("GET /manual") != 0 {
		t.Errorf("figures %+v, GET /manual %d", res.Figures, srv.count("GET /manual"))
	}
}

func TestCheckableFragment(t *testing.T) {
	for in, want := range map[string]string{
		"install": "install", ":~:text=hello": "", "intro:~:text=x": "intro",
		"/guide": "", "!/guide": "", "top": "", "": "",
	} {
		if got, _ := checkableFragment(in); got != want {
			t.Errorf("checkableFragment(%q) = %q, want %q", in, got, want)
		}
	}
}
