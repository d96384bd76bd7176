package linkcheck

import (
	"net"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/version"
)

// Options tune a verification. The first group mirrors the keys of
// daemon.link_verification (see OptionsFromConfig); the rest have defaults
// that suit a documentation site and exist mostly for tests.
type Options struct {
	MaxConcurrent      int           // parallel HTTP checks (≥1)
	RequestTimeout     time.Duration // per HTTP request, each redirect hop and HEAD/GET on its own
	RateLimitDelay     time.Duration // minimum spacing of requests to one host
	FollowRedirects    bool
	MaxRedirects       int
	CacheTTL           time.Duration // reuse of successes; 0: not cached
	CacheTTLFailures   time.Duration // reuse of broken and needs-auth verdicts; 0: not cached
	VerifyExternalOnly bool
	SkipEditLinks      bool
	// CheckFragments checks the #fragment of external links against the
	// ids of the page (check_fragments).
	CheckFragments bool

	// MaxPageBytes bounds how much of an external page is read for its
	// ids. Default 5 MiB.
	MaxPageBytes int64
	// UserAgent identifies docweave to the servers it checks.
	UserAgent string
	// MaxRetryAfter is the longest Retry-After a run waits for; a longer
	// one leaves the link rate-limited until the next run. Default 60s.
	MaxRetryAfter time.Duration
	// RateLimitRetries is how often a 429 is retried. Default 2; -1: never.
	RateLimitRetries int
	// TransientRetries is how often a timeout, connection failure or 5xx is
	// retried within the run. Default 1; -1: never.
	TransientRetries int
	// TransientRetryDelay spaces those retries. Default 2s.
	TransientRetryDelay time.Duration
	// HistoryRetention is how long a broken link's history (first seen,
	// failure count) is kept after it was last seen broken. Default 30 days.
	HistoryRetention time.Duration
	// PageTTL is how long a page's extracted links are kept by content
	// hash. Default 7 days.
	PageTTL time.Duration
	// Resolver, when set, resolves host names (tests use a loopback DNS
	// server).
	Resolver *net.Resolver
	// Now is the clock; tests move it to expire cache entries.
	Now func() time.Time
	Log zerolog.Logger
}

// OptionsFromConfig takes every knob of daemon.link_verification.
func OptionsFromConfig(lv config.LinkVerification, log zerolog.Logger) Options {
	return Options{
		MaxConcurrent:      lv.MaxConcurrent,
		RequestTimeout:     lv.RequestTimeout,
		RateLimitDelay:     lv.RateLimitDelay,
		FollowRedirects:    lv.FollowRedirects,
		MaxRedirects:       lv.MaxRedirects,
		CacheTTL:           lv.CacheTTL,
		CacheTTLFailures:   lv.CacheTTLFailures,
		VerifyExternalOnly: lv.VerifyExternalOnly,
		SkipEditLinks:      lv.SkipEditLinks,
		CheckFragments:     lv.CheckFragments,
		Log:                log,
	}
}

func (o Options) withDefaults() Options {
	if o.MaxConcurrent < 1 {
		o.MaxConcurrent = 1
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = 10 * time.Second
	}
	if o.MaxRedirects < 0 {
		o.MaxRedirects = 0
	}
	if o.UserAgent == "" {
		o.UserAgent = "docweave-linkcheck/" + version.String() + " (documentation link verification)"
	}
	if o.MaxPageBytes <= 0 {
		o.MaxPageBytes = defaultMaxPageBytes
	}
	if o.MaxRetryAfter <= 0 {
		o.MaxRetryAfter = time.Minute
	}
	o.RateLimitRetries = defaultCount(o.RateLimitRetries, 2)
	o.TransientRetries = defaultCount(o.TransientRetries, 1)
	if o.TransientRetryDelay <= 0 {
		o.TransientRetryDelay = 2 * time.Second
	}
	if o.HistoryRetention <= 0 {
		o.HistoryRetention = 30 * 24 * time.Hour
	}
	if o.PageTTL <= 0 {
		o.PageTTL = 7 * 24 * time.Hour
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// defaultCount reads a retry count where 0 means the default and a
// negative number means none.
func defaultCount(n, def int) int {
	switch {
	case n < 0:
		return 0
	case n == 0:
		return def
	default:
		return n
	}
}
