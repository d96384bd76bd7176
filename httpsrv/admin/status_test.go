package admin

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/docweave/docweave/report"
)

func TestStatusPageShowsTheDaemon(t *testing.T) {
	h := newHarness(t, "")
	next := time.Now().Add(3*time.Minute + 30*time.Second)
	success := time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC)
	h.backend.snapshot = Snapshot{
		Version:     "v1.4.2",
		BrokenLinks: 7, LinkVerification: true,
		NextSync: &next,
		Repositories: []RepoStatus{
			{Name: "api-docs", URL: "https://git.example.com/api.git", Commit: "0123456789abcdef0123", LastSuccess: &success},
			{Name: "guides", URL: "https://git.example.com/guides.git", LastError: "clone: authentication failed"},
		},
	}
	id, _, _ := h.backend.Trigger(t.Context(), "cron", nil)
	h.backend.Finish(id, report.Report{Outcome: report.OutcomeSuccess, DurationMS: 12300, RenderedPages: 31,
		FinishedAt: time.Now()})

	resp := h.doRaw(t, http.MethodGet, "/status", "")
	page := readBody(t, resp)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status = %d, want 200", resp.StatusCode)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Fatalf("Content-Type = %q", ct)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
		t.Fatalf("Content-Security-Policy = %q, want default-src 'none'", csp)
	}
	for _, want := range []string{
		"v1.4.2", ">7<", "in 3m", // header cards
		"b-1", "cron", `s-success">success`, "12.3s", ">31<", // the build
		"api-docs", "0123456789ab", "2026-02-03 04:05:06 UTC", // a healthy repository
		"guides", "clone: authentication failed", "never", // a failing one
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, external := range []string{"<script", "src=", "href=", "@import"} {
		if strings.Contains(page, external) {
			t.Errorf("page contains %q; it must be self-contained", external)
		}
	}
}

func TestStatusPageEscapesHostileText(t *testing.T) {
	h := newHarness(t, "")
	const hostile = `<script>alert("x")</script>`
	h.backend.snapshot = Snapshot{
		Version: hostile,
		Repositories: []RepoStatus{{
			Name: hostile, URL: `https://x/"><img src=x onerror=alert(1)>`,
			Commit: `"><script>c</script>`, LastError: hostile,
		}},
	}
	h.backend.Trigger(t.Context(), hostile, nil)
	page := readBody(t, h.doRaw(t, http.MethodGet, "/status", ""))
	for _, raw := range []string{"<script", "<img"} {
		if strings.Contains(page, raw) {
			t.Fatalf("page contains unescaped %q:\n%s", raw, page)
		}
	}
	if !strings.Contains(page, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;") {
		t.Fatalf("hostile name not shown as escaped text:\n%s", page)
	}
}

func TestStatusPageWithNothingYet(t *testing.T) {
	h := newHarness(t, "")
	page := readBody(t, h.doRaw(t, http.MethodGet, "/status", ""))
	for _, want := range []string{"No builds yet.", "No repositories configured.", "not scheduled", "none yet"} {
		if !strings.Contains(page, want) {
			t.Errorf("empty page lacks %q", want)
		}
	}
}

// The page's state matches what is served: a failed latest build over a
// served site says which site is served, and with link verification off
// the links card says "not verified", not "0".
func TestStatusPageSaysWhatIsServed(t *testing.T) {
	h := newHarness(t, "")
	h.backend.snapshot = Snapshot{SiteServed: true, LinkVerification: false}
	first, _, _ := h.backend.Trigger(t.Context(), "cron", nil)
	h.backend.Finish(first, report.Report{Outcome: report.OutcomeSuccess, FinishedAt: time.Now()})
	second, _, _ := h.backend.Trigger(t.Context(), "push", nil)
	h.backend.Finish(second, report.Report{Outcome: report.OutcomeFailed, FinishedAt: time.Now()})
	h.backend.snapshot.ServedBuild = first
	page := readBody(t, h.doRaw(t, http.MethodGet, "/status", ""))
	for _, want := range []string{
		`s-failed">failed</b><small>the site of build ` + first + ` is served</small>`,
		"Broken links<b>—</b><small>not verified: link verification is off (daemon.link_verification.enabled)</small>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "Broken links<b>0</b>") || strings.Contains(page, "not verified yet") {
		t.Error("the page counts links it never verified")
	}
	h.backend.snapshot = Snapshot{SiteServed: false, LinkVerification: true}
	page = readBody(t, h.doRaw(t, http.MethodGet, "/status", ""))
	for _, want := range []string{"no site is served yet", "Broken links<b>0</b><small>not verified yet</small>"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}
