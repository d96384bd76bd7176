package linkcheck

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docweave/docweave/report"
)

// Site is a rendered site to verify.
type Site struct {
	// PublicDir is the published site (<output.directory>/public).
	PublicDir string
	// ContentDir is the Markdown the site was rendered from
	// (<output.directory>/content); it only serves to name source files.
	ContentDir string
	// BaseURL is generator.base_url: absolute links to it are internal.
	BaseURL      string
	Repositories []Repository
}

// TargetResult is one distinct target and its verdict.
type TargetResult struct {
	Target  Target
	Verdict Verdict
	// Cached is true when the verdict came from the cache.
	Cached bool
	// History is set for broken targets.
	History *History
	// Pages counts the pages linking to it.
	Pages int
	// entry is what the cache held for it before this run, if anything.
	entry *Entry
}

// Occurrence is a target linked from one page. A page linking to the same
// target several times has one occurrence.
type Occurrence struct {
	Target  *TargetResult
	Page    PageRef
	Element string
}

// Result is one verification.
type Result struct {
	Figures report.LinkVerification
	// Targets are every distinct target, sorted by key.
	Targets []*TargetResult
	// Broken are the occurrences of broken targets, sorted by page then
	// target: one broken-link event each.
	Broken []Occurrence
}

// Verifier verifies the links of rendered sites; it may be reused.
type Verifier struct {
	opts  Options
	cache *Cache // nil: no cache
}

// NewVerifier prepares a verifier. A nil cache verifies without one.
func NewVerifier(opts Options, cache *Cache) *Verifier {
	return &Verifier{opts: opts.withDefaults(), cache: cache}
}

// run is the state of one verification.
type run struct {
	v           *Verifier
	buildID     string
	cacheErrors atomic.Int64
	pagesParsed atomic.Int64
}

// cacheFailed counts a cache error: verification goes on without the
// cache, and the run reports itself degraded.
func (r *run) cacheFailed(err error, what string) {
	r.cacheErrors.Add(1)
	r.v.opts.Log.Warn().Err(err).Str("build_id", r.buildID).Str("during", what).Msg("link cache unavailable; verifying without it")
}

// Verify checks every link of the site. buildID names the build whose
// site it is: it keys the broken-link history, so verifying the same build
// again (a redelivered message) does not count a failure twice. An error
// means there is no result (the site cannot be read, ctx ended); a cache
// that cannot be reached only makes the result degraded.
func (v *Verifier) Verify(ctx context.Context, site Site, buildID string) (*Result, error) {
	start := time.Now()
	r := &run{v: v, buildID: buildID}
	ix, pages, err := indexFiles(site.PublicDir)
	if err != nil {
		return nil, err
	}
	links, err := r.readPages(ctx, site.PublicDir, pages)
	if err != nil {
		return nil, err
	}
	for i, p := range pages {
		ix.addIDs(p, links[i].IDs)
	}
	ix.addRedirects(newResolver(site.BaseURL), pages, links)

	targets, occurrences := r.collect(site, pages, links)

	var external []*TargetResult
	for _, tr := range targets {
		switch tr.Target.Kind {
		case KindSkipped:
			tr.Verdict = Verdict{Status: StatusSkipped, Reason: tr.Target.Reason}
		case KindInvalid:
			tr.Verdict = Verdict{Status: StatusBroken, Reason: ReasonInvalidURL, Error: "not a valid URL"}
		case KindInternal:
			tr.Verdict = ix.check(tr.Target)
		case KindExternal:
			external = append(external, tr)
		}
	}
	requests := r.checkExternal(ctx, external)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("verify links: %w", err)
	}

	out := &Result{}
	for _, tr := range targets {
		out.Targets = append(out.Targets, tr)
	}
	sort.Slice(out.Targets, func(i, j int) bool { return out.Targets[i].Target.Key() < out.Targets[j].Target.Key() })
	r.recordHistory(ctx, out.Targets)
	for _, o := range occurrences {
		if o.Target.Verdict.Status == StatusBroken {
			out.Broken = append(out.Broken, o)
		}
	}
	sort.SliceStable(out.Broken, func(i, j int) bool {
		a, b := out.Broken[i], out.Broken[j]
		if a.Page.File != b.Page.File {
			return a.Page.File < b.Page.File
		}
		return a.Target.Target.URL < b.Target.Target.URL
	})
	out.Figures = r.figures(out, len(pages), requests, time.Since(start))
	return out, nil
}

// collect resolves every link of every page to its target: one
// TargetResult per distinct target, and one occurrence per page linking
// to it.
func (r *run) collect(site Site, pages []string, links []PageLinks) (map[string]*TargetResult, []Occurrence) {
	opts := r.v.opts
	res := newResolver(site.BaseURL)
	res.fragments = opts.CheckFragments
	sources := newSourceMap(site.ContentDir, site.Repositories)
	targets := map[string]*TargetResult{}
	var occurrences []Occurrence
	for i, file := range pages {
		pageURL := res.pageURL(file)
		ref := PageRef{File: file, URL: res.display(pageURL)}
		if src, repo := sources.lookup(file); repo != nil {
			ref.SourceFile, ref.Repository, ref.Version, ref.Forge = src, repo.Name, repo.Version, repo.Forge
		}
		seen := map[string]bool{}
		for _, raw := range links[i].Links {
			t := res.resolve(pageURL, links[i].Base, raw)
			switch {
			case t.Kind == KindSkipped:
			case opts.SkipEditLinks && isEditLink(raw, t.URL):
				t = Target{Kind: KindSkipped, URL: t.URL, Reason: ReasonEditLink}
			case opts.VerifyExternalOnly && t.Kind == KindInternal:
				t = Target{Kind: KindSkipped, URL: t.URL, Reason: ReasonInternalOff}
			}
			key := t.Key()
			tr, ok := targets[key]
			if !ok {
				tr = &TargetResult{Target: t}
				targets[key] = tr
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			tr.Pages++
			occurrences = append(occurrences, Occurrence{Target: tr, Page: ref, Element: raw.Element})
		}
	}
	return targets, occurrences
}

// checkExternal gives external targets their verdicts: fresh cache entries
// first, HTTP for the rest, and the new verdicts back into the cache. It
// returns how many HTTP requests were sent.
func (r *run) checkExternal(ctx context.Context, targets []*TargetResult) int {
	now := r.v.opts.Now()
	if r.v.cache != nil {
		parallel(ctx, len(targets), 16, func(i int) {
			tr := targets[i]
			var e Entry
			ok, err := r.v.cache.Get(ctx, TargetKey(tr.Target.Key()), &e)
			if err != nil {
				r.cacheFailed(err, "link lookup")
				return
			}
			if !ok {
				return
			}
			tr.entry = &e
			tr.History = e.History
			if e.Fresh(now) {
				tr.Verdict, tr.Cached = e.Verdict, true
			}
		})
	}
	// The targets to request, by page: a page whose fragments are linked
	// is read once for all of them.
	var misses []string
	byPage := map[string][]*TargetResult{}
	withFragments := map[string]bool{}
	for _, tr := range targets {
		if tr.Cached {
			continue
		}
		page := tr.Target.Page()
		if _, ok := byPage[page]; !ok {
			misses = append(misses, page)
		}
		byPage[page] = append(byPage[page], tr)
		if tr.Target.Fragment != "" {
			withFragments[page] = true
		}
	}
	if len(misses) == 0 {
		return 0
	}
	checker := newHTTPChecker(r.v.opts)
	defer checker.close()
	body := func(page string) bool { return withFragments[page] }
	checker.checkAll(ctx, misses, body, func(page string, v Verdict, anchors *pageAnchors) {
		for _, tr := range byPage[page] {
			tr.Verdict = v
			if tr.Target.Fragment != "" {
				tr.Verdict = fragmentVerdict(v, anchors, tr.Target.Fragment)
			}
			r.store(ctx, tr)
		}
	})
	return int(checker.requests.Load())
}

// store writes a new verdict to the cache when it may be reused. A
// transient or rate-limited verdict leaves the previous entry (and the
// history in it) alone; a broken one is written with its history by
// recordHistory.
func (r *run) store(ctx context.Context, tr *TargetResult) {
	if r.v.cache == nil || ctx.Err() != nil || tr.Verdict.Status == StatusBroken {
		return
	}
	now := r.v.opts.Now()
	fresh, ok := tr.Verdict.Cacheable(r.v.opts.CacheTTL, r.v.opts.CacheTTLFailures)
	if !ok {
		return
	}
	e := Entry{URL: tr.Target.URL, Verdict: tr.Verdict, CheckedAt: now, FreshUntil: now.Add(fresh)}
	if err := r.v.cache.Put(ctx, TargetKey(tr.Target.Key()), e, fresh); err != nil {
		r.cacheFailed(err, "link store")
	}
}

// parallel runs fn for 0..n-1 on up to workers goroutines.
func parallel(ctx context.Context, n, workers int, fn func(i int)) {
	if n == 0 {
		return
	}
	next := atomic.Int64{}
	var wg sync.WaitGroup
	for w := 0; w < min(workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n || ctx.Err() != nil {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}
