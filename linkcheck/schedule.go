package linkcheck

import (
	"context"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"
)

// job is one URL on its way to a verdict, with the retries it has had.
type job struct {
	url            string
	rateLimited    int
	transientTries int
}

// checkAll gives every URL a verdict, MaxConcurrent at a time, and calls
// done once per URL (from the worker goroutines, so done must be safe for
// concurrent use), with the page's ids when body(url) asked for them. A 429 is retried after its Retry-After and a transient
// failure after TransientRetryDelay; a job waiting for its retry holds no
// worker, and its host is held back for everyone meanwhile. URLs are
// interleaved by host so that workers do not queue up behind one host's
// rate-limit delay while other hosts are idle.
func (c *httpChecker) checkAll(ctx context.Context, urls []string, body func(url string) bool, done func(url string, v Verdict, p *pageAnchors)) {
	if len(urls) == 0 {
		return
	}
	queue := make(chan job, len(urls))
	var pending sync.WaitGroup
	pending.Add(len(urls))
	for _, u := range interleaveByHost(urls) {
		queue <- job{url: u}
	}
	var timers sync.WaitGroup
	// retryLater puts a job back after a wait, or at once when ctx ends
	// (the worker then settles it as cancelled).
	retryLater := func(j job, after time.Duration) {
		timers.Add(1)
		go func() {
			defer timers.Done()
			t := time.NewTimer(after)
			defer t.Stop()
			select {
			case <-t.C:
			case <-ctx.Done():
			}
			queue <- j
		}()
	}
	var workers sync.WaitGroup
	for i := 0; i < c.opts.MaxConcurrent; i++ {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for j := range queue {
				v, anchors, wait, err := c.check(ctx, j.url, body != nil && body(j.url))
				if err != nil {
					done(j.url, Verdict{Status: StatusTransient, Reason: ReasonTimeout, Error: "verification cancelled: " + err.Error()}, nil)
					pending.Done()
					continue
				}
				switch {
				case v.Status == StatusRateLimited && wait > c.opts.MaxRetryAfter:
					v.Error += " (Retry-After " + wait.String() + " is longer than this run waits)"
				case v.Status == StatusRateLimited && j.rateLimited < c.opts.RateLimitRetries:
					j.rateLimited++
					c.limiter.blockUntil(hostOf(j.url), c.opts.Now().Add(wait))
					retryLater(j, wait)
					continue
				case v.Status == StatusTransient && j.transientTries < c.opts.TransientRetries:
					j.transientTries++
					retryLater(j, c.opts.TransientRetryDelay)
					continue
				}
				done(j.url, v, anchors)
				pending.Done()
			}
		}()
	}
	pending.Wait()
	timers.Wait()
	close(queue)
	workers.Wait()
}

// interleaveByHost orders URLs round-robin over their hosts (hosts in
// name order, URLs of a host in their given order), so consecutive jobs
// go to different hosts.
func interleaveByHost(urls []string) []string {
	byHost := map[string][]string{}
	var hosts []string
	for _, u := range urls {
		h := hostOf(u)
		if _, ok := byHost[h]; !ok {
			hosts = append(hosts, h)
		}
		byHost[h] = append(byHost[h], u)
	}
	sort.Strings(hosts)
	out := make([]string, 0, len(urls))
	for len(out) < len(urls) {
		for _, h := range hosts {
			if list := byHost[h]; len(list) > 0 {
				out = append(out, list[0])
				byHost[h] = list[1:]
			}
		}
	}
	return out
}

// hostOf returns the lower-cased host (with port) of a URL.
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Host)
}
