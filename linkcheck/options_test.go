package linkcheck

import (
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
)

func TestOptionsFromConfigTakesEveryKnob(t *testing.T) {
	lv := config.Default().Daemon.LinkVerification
	lv.MaxConcurrent, lv.RequestTimeout, lv.RateLimitDelay = 7, 3*time.Second, 250*time.Millisecond
	lv.FollowRedirects, lv.MaxRedirects = false, 5
	lv.CacheTTL, lv.CacheTTLFailures = 2*time.Hour, 10*time.Minute
	lv.VerifyExternalOnly, lv.SkipEditLinks = true, false
	o := OptionsFromConfig(lv, zerolog.Nop())
	if o.MaxConcurrent != 7 || o.RequestTimeout != 3*time.Second || o.RateLimitDelay != 250*time.Millisecond ||
		o.FollowRedirects || o.MaxRedirects != 5 || o.CacheTTL != 2*time.Hour || o.CacheTTLFailures != 10*time.Minute ||
		!o.VerifyExternalOnly || o.SkipEditLinks {
		t.Fatalf("a knob was lost: %+v", o)
	}
}

func TestOptionsDefaults(t *testing.T) {
	o := Options{TransientRetries: -1}.withDefaults()
	if o.MaxConcurrent != 1 || o.RequestTimeout != 10*time.Second || o.RateLimitRetries != 2 || o.TransientRetries != 0 || o.Now == nil || o.UserAgent == "" {
		t.Fatalf("defaults: %+v", o)
	}
}
