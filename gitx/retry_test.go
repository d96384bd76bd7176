package gitx

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/docweave/docweave/config"
)

func TestDelayStrategies(t *testing.T) {
	s := time.Second
	cases := []struct {
		name   string
		policy RetryPolicy
		want   []time.Duration // attempts 1..n
	}{
		{"fixed", RetryPolicy{Backoff: "fixed", Initial: s, Max: 30 * s}, []time.Duration{s, s, s}},
		{"linear", RetryPolicy{Backoff: "linear", Initial: s, Max: 30 * s}, []time.Duration{s, 2 * s, 3 * s}},
		{"default is linear", RetryPolicy{Initial: 2 * s}, []time.Duration{2 * s, 4 * s, 6 * s}},
		{"exponential", RetryPolicy{Backoff: "exponential", Initial: s, Max: 30 * s}, []time.Duration{s, 2 * s, 4 * s, 8 * s, 16 * s, 30 * s, 30 * s}},
		{"linear capped", RetryPolicy{Backoff: "linear", Initial: 10 * s, Max: 25 * s}, []time.Duration{10 * s, 20 * s, 25 * s}},
		{"no initial", RetryPolicy{Backoff: "exponential"}, []time.Duration{0, 0}},
	}
	for _, c := range cases {
		for i, want := range c.want {
			if got := c.policy.Delay(i + 1); got != want {
				t.Errorf("%s: Delay(%d) = %s, want %s", c.name, i+1, got, want)
			}
		}
	}
	if got := (RetryPolicy{Initial: s}).Delay(0); got != 0 {
		t.Errorf("Delay(0) = %s, want 0", got)
	}
}

func TestDelayDoesNotOverflow(t *testing.T) {
	exp := RetryPolicy{Backoff: "exponential", Initial: time.Hour}
	if d := exp.Delay(200); d <= 0 {
		t.Fatalf("exponential Delay(200) overflowed to %s", d)
	}
	lin := RetryPolicy{Backoff: "linear", Initial: time.Duration(1 << 60)}
	if d := lin.Delay(100); d <= 0 {
		t.Fatalf("linear Delay(100) overflowed to %s", d)
	}
}

func TestRetryPolicyValidate(t *testing.T) {
	if err := (RetryPolicy{Backoff: "quadratic"}).validate(); err == nil || !strings.Contains(err.Error(), "quadratic") {
		t.Fatalf("unknown backoff: %v", err)
	}
	if err := (RetryPolicy{MaxRetries: -1}).validate(); err == nil {
		t.Fatal("negative retries accepted")
	}
	if err := (RetryPolicy{Backoff: "fixed", MaxRetries: 2, Initial: time.Second}).validate(); err != nil {
		t.Fatalf("valid policy rejected: %v", err)
	}
}

func TestDefaultSleepStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := RetryPolicy{}.sleep(ctx, time.Hour)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("sleep on a cancelled context returned %v", err)
	}
	if err := (RetryPolicy{}).sleep(context.Background(), time.Nanosecond); err != nil {
		t.Fatalf("short sleep: %v", err)
	}
}

func TestPolicyForTakesTheBuildSection(t *testing.T) {
	b := config.Default().Build
	b.MaxRetries, b.RetryBackoff, b.RetryInitialDelay, b.RetryMaxDelay = 7, BackoffExponential, time.Second, time.Minute
	p := PolicyFor(b)
	if p.MaxRetries != 7 || p.Backoff != BackoffExponential || p.Initial != time.Second || p.Max != time.Minute {
		t.Fatalf("policy %+v", p)
	}
}
