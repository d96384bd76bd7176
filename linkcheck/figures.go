package linkcheck

import (
	"fmt"
	"time"

	"github.com/docweave/docweave/internal/words"
	"github.com/docweave/docweave/report"
)

// figures counts the result for the report and the metrics.
func (r *run) figures(res *Result, pages, requests int, took time.Duration) report.LinkVerification {
	f := report.LinkVerification{
		Status:       report.LinksComplete,
		Pages:        pages,
		PagesParsed:  int(r.pagesParsed.Load()),
		Requests:     requests,
		BrokenEvents: len(res.Broken),
		CacheErrors:  int(r.cacheErrors.Load()),
		DurationMS:   took.Milliseconds(),
		VerifiedAt:   r.v.opts.Now().UTC(),
	}
	if f.CacheErrors > 0 {
		f.Status = report.LinksDegraded
		f.Error = fmt.Sprintf("the link cache (kv_bucket) failed %s; verdicts are complete but were not all cached", words.Plural(f.CacheErrors, "time"))
	}
	for _, tr := range res.Targets {
		switch tr.Verdict.Status {
		case StatusSkipped:
			f.Skipped++
			continue
		case StatusBroken:
			f.Broken++
		case StatusNeedsAuth:
			f.NeedsAuth++
		case StatusRateLimited:
			f.RateLimited++
		case StatusTransient:
			f.Transient++
		case StatusUnverifiable:
			f.Unverifiable++
		}
		f.Checked++
		if tr.Cached {
			f.Cached++
		}
		if tr.Target.Kind == KindInternal {
			f.Internal++
		} else {
			f.External++
		}
	}
	for _, o := range res.Broken {
		if len(f.BrokenLinks) == report.MaxLinkProblems {
			break
		}
		f.BrokenLinks = append(f.BrokenLinks, report.LinkProblem{
			URL: o.Target.Target.URL, Internal: o.Target.Target.Kind == KindInternal,
			StatusCode: o.Target.Verdict.Code, Error: o.Target.Verdict.Error,
			SourcePage: o.Page.URL, SourceFile: o.Page.SourceFile, Repository: o.Page.Repository, Version: o.Page.Version,
		})
	}
	return f
}
