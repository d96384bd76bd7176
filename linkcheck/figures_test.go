package linkcheck

import (
	"reflect"
	"testing"
	"time"

	"github.com/docweave/docweave/report"
)

func TestFiguresCountTargetsAndCapTheList(t *testing.T) {
	r := &run{v: NewVerifier(Options{Now: func() time.Time { return time.Unix(0, 0) }}, nil)}
	res := &Result{}
	add := func(kind Kind, status Status, cached bool) *TargetResult {
		tr := &TargetResult{Target: Target{Kind: kind, URL: string(kind) + string(status)}, Verdict: Verdict{Status: status}, Cached: cached}
		res.Targets = append(res.Targets, tr)
		return tr
	}
	broken := add(KindExternal, StatusBroken, true)
	add(KindExternal, StatusOK, true)
	add(KindExternal, StatusNeedsAuth, false)
	add(KindExternal, StatusRateLimited, false)
	add(KindExternal, StatusTransient, false)
	add(KindInternal, StatusOK, false)
	add(KindSkipped, StatusSkipped, false)
	for i := 0; i < report.MaxLinkProblems+5; i++ {
		res.Broken = append(res.Broken, Occurrence{Target: broken, Page: PageRef{URL: "/p"}})
	}
	r.cacheErrors.Add(2)
	f := r.figures(res, 3, 9, 1500*time.Millisecond)
	want := report.LinkVerification{Status: report.LinksDegraded, Checked: 6, Broken: 1, Cached: 2, NeedsAuth: 1, RateLimited: 1,
		Transient: 1, Skipped: 1, Internal: 1, External: 5, Requests: 9, Pages: 3, BrokenEvents: report.MaxLinkProblems + 5,
		CacheErrors: 2, DurationMS: 1500}
	got := f
	got.Error, got.BrokenLinks, got.VerifiedAt = "", nil, time.Time{}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("figures\n got %+v\nwant %+v", got, want)
	}
	if len(f.BrokenLinks) != report.MaxLinkProblems || f.Error == "" {
		t.Fatalf("%d broken links listed, error %q", len(f.BrokenLinks), f.Error)
	}
}
