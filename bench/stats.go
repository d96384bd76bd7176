package bench

import (
	"math"
	"sort"
)

// Summary is a figure measured several times: its median, which is the
// figure we report, and its spread, which says how far to trust it on a
// shared machine.
type Summary struct {
	Median  float64   `json:"median"`
	Min     float64   `json:"min"`
	Max     float64   `json:"max"`
	Samples []float64 `json:"samples"`
}

// Summarize returns the median and spread of samples (zero for none).
func Summarize(samples []float64) Summary {
	s := Summary{Samples: append([]float64(nil), samples...)}
	if len(samples) == 0 {
		return s
	}
	sorted := append([]float64(nil), samples...)
	sort.Float64s(sorted)
	n := len(sorted)
	if n%2 == 1 {
		s.Median = sorted[n/2]
	} else {
		s.Median = (sorted[n/2-1] + sorted[n/2]) / 2
	}
	s.Min, s.Max = sorted[0], sorted[n-1]
	return s
}

// SpreadPercent is (max-min) relative to the median, in percent: the
// width of the range the samples fell in.
func (s Summary) SpreadPercent() float64 {
	if s.Median == 0 {
		return 0
	}
	return (s.Max - s.Min) / math.Abs(s.Median) * 100
}

// slope fits y = a + b·x by least squares over x = 0, 1, … and returns b:
// the growth per step of a series such as the heap after each build.
func slope(ys []float64) float64 {
	n := float64(len(ys))
	if n < 2 {
		return 0
	}
	var sx, sy, sxx, sxy float64
	for i, y := range ys {
		x := float64(i)
		sx += x
		sy += y
		sxx += x * x
		sxy += x * y
	}
	den := n*sxx - sx*sx
	if den == 0 {
		return 0
	}
	return (n*sxy - sx*sy) / den
}
