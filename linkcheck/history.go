package linkcheck

import "context"

// recordHistory brings the history of every broken target up to date and
// writes it (with the verdict, when the verdict may be reused). A target
// broken in the previous verification too continues its run of failures;
// one that was not starts a new run. Targets already counted for this
// build (a redelivered verification) are left as they are.
func (r *run) recordHistory(ctx context.Context, targets []*TargetResult) {
	now := r.v.opts.Now()
	prev := ""
	if r.v.cache != nil {
		var rec RunRecord
		ok, err := r.v.cache.Get(ctx, runKey, &rec)
		switch {
		case err != nil:
			r.cacheFailed(err, "run lookup")
		case ok && rec.BuildID == r.buildID:
			prev = rec.Previous
		case ok:
			prev = rec.BuildID
		}
	}
	var broken []*TargetResult
	for _, tr := range targets {
		if tr.Verdict.Status == StatusBroken {
			broken = append(broken, tr)
		} else {
			tr.History = nil
		}
	}
	parallel(ctx, len(broken), 16, func(i int) {
		tr := broken[i]
		key := TargetKey(tr.Target.Key())
		if tr.Target.Kind != KindExternal && r.v.cache != nil {
			// External entries were read before checking; internal
			// targets are read here, for their history only.
			var e Entry
			if ok, err := r.v.cache.Get(ctx, key, &e); err != nil {
				r.cacheFailed(err, "history lookup")
			} else if ok {
				tr.History = e.History
			}
		}
		h := tr.History
		switch {
		case h != nil && h.LastBuild == r.buildID:
			return // counted already, by an earlier delivery of this build
		case h != nil && prev != "" && h.LastBuild == prev:
			next := *h
			next.LastSeen, next.Failures, next.LastBuild = now, h.Failures+1, r.buildID
			tr.History = &next
		default:
			tr.History = &History{FirstSeen: now, LastSeen: now, Failures: 1, LastBuild: r.buildID}
		}
		if r.v.cache == nil {
			return
		}
		e := Entry{URL: tr.Target.URL, Verdict: tr.Verdict, CheckedAt: now, History: tr.History}
		switch fresh, ok := tr.Verdict.Cacheable(r.v.opts.CacheTTL, r.v.opts.CacheTTLFailures); {
		case tr.Cached:
			// A reused verdict keeps the age it had.
			e.CheckedAt, e.FreshUntil = tr.entry.CheckedAt, tr.entry.FreshUntil
		case ok && tr.Target.Kind == KindExternal:
			e.FreshUntil = now.Add(fresh)
		}
		if err := r.v.cache.Put(ctx, key, e, r.v.opts.HistoryRetention); err != nil {
			r.cacheFailed(err, "history store")
		}
	})
	if r.v.cache != nil && ctx.Err() == nil {
		rec := RunRecord{BuildID: r.buildID, Previous: prev, At: now}
		if err := r.v.cache.Put(ctx, runKey, rec, r.v.opts.HistoryRetention); err != nil {
			r.cacheFailed(err, "run store")
		}
	}
}
