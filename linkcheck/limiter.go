package linkcheck

import (
	"context"
	"strings"
	"sync"
	"time"
)

// hostLimiter spaces requests to each host by a fixed delay — the
// rate_limit_delay — while requests to different hosts run in parallel up
// to max_concurrent. Spacing per host rather than globally is kinder to the
// servers (none sees more than one request per delay from us) and faster for
// us (a site linking a hundred hosts is not slowed to one request per
// delay). A host that answered 429 is also blocked until its Retry-After.
type hostLimiter struct {
	delay time.Duration
	now   func() time.Time
	mu    sync.Mutex
	next  map[string]time.Time // earliest start of the next request per host
}

func newHostLimiter(delay time.Duration, now func() time.Time) *hostLimiter {
	return &hostLimiter{delay: delay, now: now, next: map[string]time.Time{}}
}

// reserve books the next request slot of host and returns its start time.
// Slots are handed out in call order, so waiting requests keep their turn.
func (l *hostLimiter) reserve(host string) time.Time {
	host = strings.ToLower(host)
	l.mu.Lock()
	defer l.mu.Unlock()
	start := l.now()
	if next, ok := l.next[host]; ok && next.After(start) {
		start = next
	}
	l.next[host] = start.Add(l.delay)
	return start
}

// wait blocks until host may be sent the next request.
func (l *hostLimiter) wait(ctx context.Context, host string) error {
	d := l.reserve(host).Sub(l.now())
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// blockUntil keeps every request to host from starting before t (a
// Retry-After answer).
func (l *hostLimiter) blockUntil(host string, t time.Time) {
	host = strings.ToLower(host)
	l.mu.Lock()
	defer l.mu.Unlock()
	if t.After(l.next[host]) {
		l.next[host] = t
	}
}
