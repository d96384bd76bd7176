package admin

import (
	"context"
	"errors"
	"time"

	"github.com/docweave/docweave/report"
)

// Build states reported by BuildStatus.State. A build moves from queued to
// running and ends in one of the last four.
const (
	StateQueued  = "queued"
	StateRunning = "running"
	StateSuccess = "success"
	StatePartial = "partial"
	StateFailed  = "failed"
	StateSkipped = "skipped" // skip evaluation found nothing changed
)

// BuildStatus is what the daemon knows about one requested build. It is
// the body of GET /api/builds/{id}.
type BuildStatus struct {
	ID          string    `json:"id"`
	Reason      string    `json:"reason"`
	State       string    `json:"state"`                 // one of the State constants
	SkipReason  string    `json:"skip_reason,omitempty"` // set when State is skipped
	RequestedAt time.Time `json:"requested_at"`
	// FinishedAt is nil until the build ends.
	FinishedAt *time.Time `json:"finished_at,omitempty"`
	// Report is the build report once there is one.
	Report *report.Report `json:"report,omitempty"`
}

// RepoStatus is the latest state of one configured repository.
type RepoStatus struct {
	Name string `json:"name"`
	URL  string `json:"url"` // credentials redacted by the Backend
	// Commit is the commit of the latest successful clone or update.
	Commit      string     `json:"commit,omitempty"`
	LastSuccess *time.Time `json:"last_success,omitempty"`
	// LastError is the latest failure's message, empty after a success.
	LastError string `json:"last_error,omitempty"`
	// Stale is set when the latest build could not render this repository
	// (or one of its versions) and the site shows its last good pages.
	Stale bool `json:"stale,omitempty"`
}

// ForgeStatus is the latest scan of one configured forge (forges[]): a
// forge that could not be listed keeps its last repositories, and says
// why here.
type ForgeStatus struct {
	Name         string     `json:"name"`
	Type         string     `json:"type"`
	OK           bool       `json:"ok"`
	Error        string     `json:"error,omitempty"`
	Repositories int        `json:"repositories"`
	Listed       int        `json:"listed"`
	Requests     int        `json:"requests"`
	ScannedAt    *time.Time `json:"scanned_at,omitempty"`
	ListedAt     *time.Time `json:"listed_at,omitempty"`
	Warnings     []string   `json:"warnings,omitempty"`
}

// StageStatus is one stage: the live processes that run it and the
// backlog of its durable consumer.
type StageStatus struct {
	Name string `json:"name"`
	// Processes is how many live processes run the stage (0: nobody
	// does, and a build waiting on it fails with STAGE_UNAVAILABLE);
	// absent when unknown.
	Processes   *int   `json:"processes,omitempty"`
	Pending     uint64 `json:"pending"`
	AckPending  uint64 `json:"ack_pending"`
	Redelivered uint64 `json:"redelivered"`
}

// Snapshot is the daemon's state as shown on /status.
type Snapshot struct {
	// Builds are the most recent builds, newest first.
	Builds       []BuildStatus `json:"builds"`
	Repositories []RepoStatus  `json:"repositories"`
	// Forges are the configured forges' latest scans; absent without
	// forges.
	Forges []ForgeStatus `json:"forges,omitempty"`
	// BrokenLinks is the count from the latest link verification.
	BrokenLinks int `json:"broken_links"`
	// LinkStatus is the latest link verification's status (complete,
	// degraded, failed; empty before the first), and LinkError why it was
	// not complete — the health detail that /ready deliberately ignores.
	LinkStatus string `json:"link_status,omitempty"`
	LinkError  string `json:"link_error,omitempty"`
	// LinkVerification says whether links are verified after builds
	// (daemon.link_verification.enabled); without it BrokenLinks means
	// nothing and the page says "not verified".
	LinkVerification bool `json:"link_verification"`
	// SiteServed says whether the docs server has a site to serve, and
	// ServedBuild which of the recent builds published it ("" when it
	// is older than them, e.g. after a restart), so a failed latest build
	// is not read as "no site".
	SiteServed  bool   `json:"site_served"`
	ServedBuild string `json:"served_build,omitempty"`
	// Stages shows each pipeline stage's durable consumer: messages waiting,
	// delivered but unacknowledged, and delivered more than once.
	Stages []StageStatus `json:"stages,omitempty"`
	// NextSync is the next scheduled sync; nil when none is scheduled.
	NextSync *time.Time `json:"next_sync,omitempty"`
	// Version is the docweave version of the daemon.
	Version string `json:"version"`
	// Control is "leader" when this process coordinates builds, or
	// "follower" when it forwards triggers to the process that does (a
	// split deployment with several control-plane processes).
	Control string `json:"control,omitempty"`
}

// Backend is the daemon as the admin server sees it. Implementations must
// be safe for concurrent use: every request calls it from its own
// goroutine.
type Backend interface {
	// Trigger requests a build for reason, limited to repositories (all
	// when empty). When a build is already waiting to start, the request
	// joins it: coalesced is true and buildID is that build's ID. Errors
	// wrapping ErrUnknownRepository or ErrNotAccepting are reported to the
	// client with their message; any other error is logged and answered
	// with a generic 500, so it may carry internal detail (never secrets).
	Trigger(ctx context.Context, reason string, repositories []string) (buildID string, coalesced bool, err error)
	// Build returns the status of a build requested earlier; false when the
	// ID is unknown (or forgotten).
	Build(id string) (BuildStatus, bool)
	// Snapshot returns the current state for the status page.
	Snapshot() Snapshot
}

// Errors a Backend's Trigger wraps so the server can answer the client
// precisely.
var (
	// ErrUnknownRepository: a requested repository is not configured
	// (answered 400, code unknown_repository).
	ErrUnknownRepository = errors.New("unknown repository")
	// ErrNotAccepting: the daemon is shutting down and takes no new
	// triggers (answered 503, code not_accepting_triggers).
	ErrNotAccepting = errors.New("not accepting triggers")
)
