package pipeline

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestErrorClassification(t *testing.T) {
	base := errors.New("boom")
	if !IsPermanent(fmt.Errorf("wrapped: %w", Permanent(base))) {
		t.Fatal("wrapped permanent error not recognised")
	}
	if IsPermanent(Transient(base, 0)) || IsPermanent(base) {
		t.Fatal("transient or plain error taken for permanent")
	}
	if !errors.Is(Permanent(base), base) || !errors.Is(Transient(base, 0), base) {
		t.Fatal("wrappers hide the cause")
	}
	if Permanent(nil) != nil || Transient(nil, 0) != nil {
		t.Fatal("nil must stay nil")
	}
}

func TestRetryDelay(t *testing.T) {
	cases := []struct {
		err       error
		delivered uint64
		want      time.Duration
	}{
		{errors.New("x"), 1, 500 * time.Millisecond},
		{errors.New("x"), 2, time.Second},
		{errors.New("x"), 4, 4 * time.Second},
		{errors.New("x"), 40, 30 * time.Second},
		{Transient(errors.New("x"), 7*time.Second), 1, 7 * time.Second},
	}
	for _, c := range cases {
		if got := retryDelay(c.err, c.delivered); got != c.want {
			t.Errorf("retryDelay(%v, %d) = %v, want %v", c.err, c.delivered, got, c.want)
		}
	}
}
