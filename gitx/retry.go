package gitx

import (
	"context"
	"fmt"
	"time"

	"github.com/docweave/docweave/config"
)

// Backoff strategies of build.retry_backoff.
const (
	BackoffFixed       = "fixed"
	BackoffLinear      = "linear"
	BackoffExponential = "exponential"
)

// RetryPolicy says how often and how patiently transient failures (CodeNetwork)
// are retried. The zero value tries once.
type RetryPolicy struct {
	// MaxRetries is the number of retries after the first attempt.
	MaxRetries int
	// Backoff is fixed, linear or exponential; "" means linear, the
	// configuration default.
	Backoff string
	// Initial is the delay before the first retry; Max caps every delay
	// (0 means no cap).
	Initial, Max time.Duration
	// Sleep waits between attempts; nil means a timer that stops early when
	// ctx ends. Tests inject a recorder here instead of waiting.
	Sleep func(context.Context, time.Duration) error
}

// Delay is the wait before retry number attempt (1 for the first retry):
// fixed waits Initial every time, linear waits attempt×Initial and
// exponential waits Initial×2^(attempt-1); all are capped at Max.
func (p RetryPolicy) Delay(attempt int) time.Duration {
	if attempt < 1 || p.Initial <= 0 {
		return 0
	}
	var d time.Duration
	switch p.Backoff {
	case BackoffFixed:
		d = p.Initial
	case BackoffExponential:
		d = p.Initial
		for i := 1; i < attempt; i++ {
			if p.Max > 0 && d >= p.Max {
				break
			}
			if d > time.Duration(1<<62)/2 { // doubling would overflow
				d = time.Duration(1<<63 - 1)
				break
			}
			d *= 2
		}
	default: // linear
		if time.Duration(attempt) > time.Duration(1<<63-1)/p.Initial {
			d = time.Duration(1<<63 - 1)
		} else {
			d = p.Initial * time.Duration(attempt)
		}
	}
	if p.Max > 0 && d > p.Max {
		d = p.Max
	}
	return d
}

// validate reports a policy the configuration should not have produced.
func (p RetryPolicy) validate() error {
	switch p.Backoff {
	case "", BackoffFixed, BackoffLinear, BackoffExponential:
	default:
		return fmt.Errorf("retry backoff %q is not one of fixed, linear, exponential", p.Backoff)
	}
	if p.MaxRetries < 0 {
		return fmt.Errorf("max retries %d must not be negative", p.MaxRetries)
	}
	if p.Initial < 0 || p.Max < 0 {
		return fmt.Errorf("retry delays must not be negative (initial %s, max %s)", p.Initial, p.Max)
	}
	return nil
}

// sleep waits d using the injected Sleep or a context-aware timer.
func (p RetryPolicy) sleep(ctx context.Context, d time.Duration) error {
	if p.Sleep != nil {
		return p.Sleep(ctx, d)
	}
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// PolicyFor is the retry policy the build section configures
// (max_retries, retry_backoff, retry_initial_delay, retry_max_delay), the
// one every Git request of a build follows: listing refs and acquiring.
func PolicyFor(b config.BuildSettings) RetryPolicy {
	return RetryPolicy{MaxRetries: b.MaxRetries, Backoff: b.RetryBackoff, Initial: b.RetryInitialDelay, Max: b.RetryMaxDelay}
}
