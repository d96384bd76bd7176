package linkcheck

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// defaultRetryAfter is the wait after a 429 that names none.
const defaultRetryAfter = time.Second

// retryAfter reads a Retry-After header — delay seconds or an HTTP date —
// as a duration from now. A missing or unreadable header gives the default;
// a date in the past gives zero.
func retryAfter(header string, now time.Time) time.Duration {
	header = strings.TrimSpace(header)
	if header == "" {
		return defaultRetryAfter
	}
	if secs, err := strconv.Atoi(header); err == nil {
		if secs < 0 {
			return defaultRetryAfter
		}
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(header); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
		return 0
	}
	return defaultRetryAfter
}
