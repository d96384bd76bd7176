package admin

import (
	"fmt"
	"strconv"
	"time"
)

// statusPage is the status template's data: the Snapshot turned into
// display strings, so the template only places text.
type statusPage struct {
	Version        string
	Control        string
	GeneratedAt    string
	RefreshSeconds int
	LatestState    string
	LatestClass    string
	// Served says what the docs server serves when the latest build did
	// not publish it ("" when it did, or nothing is served).
	Served       string
	BrokenLinks  string
	LinkStatus   string
	NextSync     string
	Builds       []statusBuild
	Repositories []statusRepo
	Forges       []statusForge
	Stages       []StageStatus
}

type statusForge struct {
	Name, Type, State, Class, Repositories, Requests, ListedAt, Error string
	Warnings                                                          []string
}

type statusBuild struct {
	ID, Reason, State, Class, SkipReason string
	Requested, Duration, Pages, Failed   string
}

type statusRepo struct {
	Name, URL, Commit, ShortCommit, LastSuccess, LastError string
	Stale                                                  bool
}

func newStatusPage(s Snapshot, now time.Time) statusPage {
	page := statusPage{
		Version:        orDash(s.Version),
		Control:        s.Control,
		GeneratedAt:    formatTime(now),
		RefreshSeconds: statusRefreshSeconds,
		LatestState:    "none yet",
		LatestClass:    "none",
		BrokenLinks:    brokenLinks(s),
		LinkStatus:     linkStatus(s),
		Stages:         s.Stages,
		NextSync:       "not scheduled",
	}
	if s.NextSync != nil {
		page.NextSync = formatTime(*s.NextSync) + " (" + relative(*s.NextSync, now) + ")"
	}
	if len(s.Builds) > 0 {
		page.LatestState = s.Builds[0].State
		page.LatestClass = stateClass(s.Builds[0].State)
		page.Served = served(s)
	}
	builds := s.Builds
	if len(builds) > maxStatusBuilds {
		builds = builds[:maxStatusBuilds]
	}
	for _, b := range builds {
		page.Builds = append(page.Builds, newStatusBuild(b, now))
	}
	for _, r := range s.Repositories {
		row := statusRepo{Name: r.Name, URL: r.URL, Commit: r.Commit, ShortCommit: shortCommit(r.Commit),
			LastSuccess: "never", LastError: r.LastError, Stale: r.Stale}
		if r.LastSuccess != nil {
			row.LastSuccess = formatTime(*r.LastSuccess) + " (" + relative(*r.LastSuccess, now) + ")"
		}
		page.Repositories = append(page.Repositories, row)
	}
	for _, f := range s.Forges {
		row := statusForge{Name: f.Name, Type: f.Type, State: "listed", Class: StateSuccess,
			Repositories: fmt.Sprintf("%d of %d", f.Repositories, f.Listed), Requests: fmt.Sprint(f.Requests),
			ListedAt: "never", Error: f.Error, Warnings: f.Warnings}
		if !f.OK {
			row.State, row.Class = "failed", StateFailed
		}
		if f.ListedAt != nil {
			row.ListedAt = formatTime(*f.ListedAt) + " (" + relative(*f.ListedAt, now) + ")"
		}
		page.Forges = append(page.Forges, row)
	}
	return page
}

func newStatusBuild(b BuildStatus, now time.Time) statusBuild {
	row := statusBuild{ID: b.ID, Reason: orDash(b.Reason), State: orDash(b.State), Class: stateClass(b.State),
		SkipReason: b.SkipReason, Requested: formatTime(b.RequestedAt) + " (" + relative(b.RequestedAt, now) + ")",
		Duration: "—", Pages: "—", Failed: "—"}
	switch {
	case b.Report != nil && b.Report.DurationMS > 0:
		row.Duration = formatDuration(time.Duration(b.Report.DurationMS) * time.Millisecond)
	case b.FinishedAt != nil:
		row.Duration = formatDuration(b.FinishedAt.Sub(b.RequestedAt))
	case b.State == StateRunning || b.State == StateQueued:
		row.Duration = b.State + " for " + formatDuration(now.Sub(b.RequestedAt))
	}
	if b.Report != nil {
		row.Pages = fmt.Sprint(b.Report.RenderedPages)
		row.Failed = fmt.Sprint(b.Report.FailedRepositories)
	}
	return row
}

// stateClass maps a state to a CSS class; an unexpected state gets a
// neutral one rather than a class named by its text.
func stateClass(state string) string {
	switch state {
	case StateQueued, StateRunning, StateSuccess, StatePartial, StateFailed, StateSkipped:
		return state
	default:
		return "unknown"
	}
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

// relative describes t as seen from now: "3m ago", "in 2m", "now".
func relative(t, now time.Time) string {
	d := now.Sub(t)
	switch {
	case d > -time.Second && d < time.Second:
		return "now"
	case d > 0:
		return formatDuration(d) + " ago"
	default:
		return "in " + formatDuration(-d)
	}
}

// formatDuration rounds for people: 850ms, 12.3s, 4m05s, 2h10m, 3d04h.
func formatDuration(d time.Duration) string {
	switch {
	case d < 0:
		return "—"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	default:
		return fmt.Sprintf("%dd%02dh", int(d.Hours())/24, int(d.Hours())%24)
	}
}

func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// served says, under a latest build that did not publish (failed,
// running, queued), what the docs server still serves: the page said
// "failed" while the site of an earlier build was served.
func served(s Snapshot) string {
	switch latest := s.Builds[0]; {
	case latest.State == StateSuccess || latest.State == StatePartial || latest.State == StateSkipped:
		return ""
	case !s.SiteServed:
		return "no site is served yet"
	case s.ServedBuild != "":
		return "the site of build " + s.ServedBuild + " is served"
	default:
		return "the site of an earlier build is served"
	}
}

// brokenLinks is the count, or a dash when links are not verified.
func brokenLinks(s Snapshot) string {
	if !s.LinkVerification {
		return "—"
	}
	return fmt.Sprint(s.BrokenLinks)
}

// linkStatus describes the latest link verification for the status page.
func linkStatus(s Snapshot) string {
	switch {
	case !s.LinkVerification:
		return "not verified: link verification is off (daemon.link_verification.enabled)"
	case s.LinkStatus == "":
		return "not verified yet"
	case s.LinkError != "":
		return s.LinkStatus + ": " + s.LinkError
	default:
		return s.LinkStatus
	}
}

// Unrun reports whether no live process runs the stage (known, and 0).
func (s StageStatus) Unrun() bool { return s.Processes != nil && *s.Processes == 0 }

// ProcessCount is the stage's live processes as the status page writes
// them: "?" when unknown.
func (s StageStatus) ProcessCount() string {
	if s.Processes == nil {
		return "?"
	}
	return strconv.Itoa(*s.Processes)
}
