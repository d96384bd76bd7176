package admin

import (
	"fmt"
	"testing"
	"time"
)

func TestNewStatusPageLimitsAndDurations(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	var builds []BuildStatus
	for i := range maxStatusBuilds + 5 {
		builds = append(builds, BuildStatus{ID: fmt.Sprint(i), State: StateSuccess, RequestedAt: now.Add(-time.Hour)})
	}
	finished := now.Add(-58 * time.Minute)
	builds[0] = BuildStatus{ID: "done", State: StateFailed, RequestedAt: now.Add(-time.Hour), FinishedAt: &finished}
	builds[1] = BuildStatus{ID: "run", State: StateRunning, RequestedAt: now.Add(-90 * time.Second)}
	builds[2] = BuildStatus{ID: "odd", State: "exploded", RequestedAt: now}

	page := newStatusPage(Snapshot{Builds: builds}, now)
	if len(page.Builds) != maxStatusBuilds {
		t.Fatalf("%d builds listed, want %d", len(page.Builds), maxStatusBuilds)
	}
	if page.LatestState != StateFailed || page.LatestClass != StateFailed {
		t.Errorf("latest = %q/%q, want failed", page.LatestState, page.LatestClass)
	}
	if got := page.Builds[0].Duration; got != "2m00s" {
		t.Errorf("finished duration = %q, want 2m00s", got)
	}
	if got := page.Builds[1].Duration; got != "running for 1m30s" {
		t.Errorf("running duration = %q", got)
	}
	if got := page.Builds[2].Class; got != "unknown" {
		t.Errorf("class of unexpected state = %q, want unknown", got)
	}
}

func TestFormatDurationAndRelative(t *testing.T) {
	cases := map[time.Duration]string{
		850 * time.Millisecond:        "850ms",
		12300 * time.Millisecond:      "12.3s",
		4*time.Minute + 5*time.Second: "4m05s",
		2*time.Hour + 10*time.Minute:  "2h10m",
		-time.Second:                  "—",
	}
	for d, want := range cases {
		if got := formatDuration(d); got != want {
			t.Errorf("formatDuration(%v) = %q, want %q", d, got, want)
		}
	}
	now := time.Unix(1000, 0)
	if got := relative(now.Add(-5*time.Minute), now); got != "5m00s ago" {
		t.Errorf("past = %q", got)
	}
	if got := relative(now.Add(2*time.Minute), now); got != "in 2m00s" {
		t.Errorf("future = %q", got)
	}
	if got := relative(now, now); got != "now" {
		t.Errorf("present = %q", got)
	}
}
