package linkcheck

import (
	"testing"
	"time"
)

func TestVerdictForStatus(t *testing.T) {
	cases := []struct {
		code   int
		status Status
		reason string
	}{
		{200, StatusOK, ""},
		{204, StatusOK, ""},
		{401, StatusNeedsAuth, ReasonAuth},
		{403, StatusNeedsAuth, ReasonAuth},
		{404, StatusBroken, ReasonNotFound},
		{410, StatusBroken, ReasonGone},
		{400, StatusBroken, ReasonClientError},
		{429, StatusRateLimited, ReasonRateLimited},
		{500, StatusTransient, ReasonServerError},
		{503, StatusTransient, ReasonServerError},
	}
	for _, c := range cases {
		v := verdictForStatus(c.code, "x")
		if v.Status != c.status || v.Reason != c.reason || v.Code != c.code {
			t.Errorf("%d: got %+v, want %s/%s", c.code, v, c.status, c.reason)
		}
		if (v.Status == StatusOK) != (v.Error == "") {
			t.Errorf("%d: error text %q does not match status %s", c.code, v.Error, v.Status)
		}
	}
}

func TestCacheableUsesTheRightTTL(t *testing.T) {
	ok, fail := 24*time.Hour, time.Hour
	cases := []struct {
		v    Verdict
		ttl  time.Duration
		keep bool
	}{
		{Verdict{Status: StatusOK}, ok, true},
		{Verdict{Status: StatusBroken}, fail, true},
		{Verdict{Status: StatusNeedsAuth}, fail, true},
		{Verdict{Status: StatusTransient}, 0, false},
		{Verdict{Status: StatusRateLimited}, 0, false},
		{Verdict{Status: StatusSkipped}, 0, false},
	}
	for _, c := range cases {
		ttl, keep := c.v.Cacheable(ok, fail)
		if ttl != c.ttl || keep != c.keep {
			t.Errorf("%s: got %v/%v, want %v/%v", c.v.Status, ttl, keep, c.ttl, c.keep)
		}
	}
	if _, keep := (Verdict{Status: StatusOK}).Cacheable(0, fail); keep {
		t.Error("a zero success TTL must switch caching of successes off")
	}
}
