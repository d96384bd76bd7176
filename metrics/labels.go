package metrics

import (
	"strings"
	"sync"
)

// maxLabelValues bounds the distinct values of one label. Label values come
// from callers (stage names, skip reasons, delivery outcomes); a bug that
// passed an ID or an error text would otherwise create a new series per
// call and exhaust the monitoring system.
const maxLabelValues = 64

// Label values used when a caller's value cannot be used as is.
const (
	// LabelUnknown replaces an empty label value.
	LabelUnknown = "unknown"
	// LabelOther replaces new values once a label has maxLabelValues.
	LabelOther = "other"
)

// labelLimiter admits label values first come, first served, up to a
// limit; later new values are folded into LabelOther.
type labelLimiter struct {
	mu    sync.Mutex
	limit int
	seen  map[string]struct{}
}

func newLabelLimiter(limit int) *labelLimiter {
	return &labelLimiter{limit: limit, seen: make(map[string]struct{})}
}

// value returns the label value to record for v: v itself (made valid
// UTF-8), LabelUnknown when v is empty, or LabelOther when the limit of
// distinct values is reached.
func (l *labelLimiter) value(v string) string {
	v = strings.ToValidUTF8(strings.TrimSpace(v), "\uFFFD")
	if v == "" {
		return LabelUnknown
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.seen[v]; ok {
		return v
	}
	if len(l.seen) >= l.limit {
		return LabelOther
	}
	l.seen[v] = struct{}{}
	return v
}
