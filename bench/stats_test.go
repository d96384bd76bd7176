package bench

import (
	"math"
	"testing"
)

func TestSummarizeOddAndEven(t *testing.T) {
	s := Summarize([]float64{5, 1, 3})
	if s.Median != 3 || s.Min != 1 || s.Max != 5 || len(s.Samples) != 3 || s.Samples[0] != 5 {
		t.Fatalf("odd: %+v", s)
	}
	s = Summarize([]float64{4, 1, 3, 2})
	if s.Median != 2.5 {
		t.Fatalf("even median %v, want 2.5", s.Median)
	}
	if got := s.SpreadPercent(); math.Abs(got-120) > 1e-9 {
		t.Fatalf("spread %v%%, want 120%%", got)
	}
}

func TestSummarizeEmpty(t *testing.T) {
	if s := Summarize(nil); s.Median != 0 || s.SpreadPercent() != 0 {
		t.Fatalf("%+v", s)
	}
}

func TestSlopeFindsGrowthPerStep(t *testing.T) {
	if got := slope([]float64{10, 12, 14, 16}); math.Abs(got-2) > 1e-9 {
		t.Fatalf("slope %v, want 2", got)
	}
	if got := slope([]float64{7, 7, 7}); got != 0 {
		t.Fatalf("flat slope %v", got)
	}
	if got := slope([]float64{1}); got != 0 {
		t.Fatalf("single point slope %v", got)
	}
}
