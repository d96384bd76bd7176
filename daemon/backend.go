package daemon

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/httpsrv/admin"
	"github.com/docweave/docweave/httpsrv/webhook"
	"github.com/docweave/docweave/metrics"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/version"
)

// backend is the daemon as the admin and webhook servers see it.
type backend struct {
	cfg *config.Config
	// coord is the coordinator, or the forwarder to the leading process's.
	coord    buildRequests
	nextSync func() time.Time
	// leads reports whether this process leads the control plane (nil: it
	// always does).
	leads func() bool
	// lag reads each stage's consumer backlog from the broker.
	lag func() map[string]metrics.ConsumerLag
	// processes counts the live processes of every stage (0 included).
	processes func(context.Context) (map[string]int, error)

	mu    sync.Mutex
	repos map[string]*admin.RepoStatus
	// links is the latest link verification; linkBuilds the builds whose
	// figures were counted, so a redelivered message is not counted twice.
	links      *report.LinkVerification
	linkBuilds []string
}

func newBackend(cfg *config.Config, coord buildRequests) *backend {
	b := &backend{cfg: cfg, coord: coord, repos: map[string]*admin.RepoStatus{}}
	for _, r := range cfg.Repositories {
		b.repos[r.Name] = &admin.RepoStatus{Name: r.Name, URL: r.RedactedURL()}
	}
	return b
}

// Trigger implements admin.Backend.
func (b *backend) Trigger(ctx context.Context, reason string, repositories []string) (string, bool, error) {
	for _, name := range repositories {
		if _, ok := b.cfg.Repository(name); !ok {
			return "", false, fmt.Errorf("%w: %q", admin.ErrUnknownRepository, name)
		}
	}
	if reason == "" {
		reason = "admin"
	}
	id, coalesced, err := b.coord.Trigger(ctx, reason, repositories)
	if errors.Is(err, ErrClosed) || errors.Is(err, ErrNoLeader) {
		return "", false, fmt.Errorf("%w: %v", admin.ErrNotAccepting, err)
	}
	return id, coalesced, err
}

// webhookTrigger serves the webhook server.
func (b *backend) webhookTrigger(ctx context.Context, t webhook.Trigger) (webhook.TriggerResult, error) {
	// The forge may give up waiting; the build request must still be made.
	id, coalesced, err := b.coord.Trigger(context.WithoutCancel(ctx), "webhook", t.Repositories)
	return webhook.TriggerResult{BuildID: id, Coalesced: coalesced}, err
}

// Build implements admin.Backend.
func (b *backend) Build(id string) (admin.BuildStatus, bool) {
	bl, ok := b.coord.Build(id)
	if !ok {
		return admin.BuildStatus{}, false
	}
	return statusOf(bl), true
}

// Snapshot implements admin.Backend.
func (b *backend) Snapshot() admin.Snapshot {
	s := admin.Snapshot{Version: version.String(), Control: "leader"}
	if b.leads != nil && !b.leads() {
		s.Control = "follower"
	}
	for _, bl := range b.coord.Recent() {
		s.Builds = append(s.Builds, statusOf(bl))
	}
	b.mu.Lock()
	for _, r := range b.cfg.AllRepositories() {
		s.Repositories = append(s.Repositories, *b.repoStatus(r))
	}
	b.mu.Unlock()
	for _, f := range b.cfg.ForgeStatuses() {
		fs := admin.ForgeStatus{Name: f.Name, Type: f.Type, OK: f.OK, Error: f.Error, Repositories: f.Repositories,
			Listed: f.Listed, Requests: f.Requests, Warnings: f.Warnings}
		if !f.ScannedAt.IsZero() {
			at := f.ScannedAt
			fs.ScannedAt = &at
		}
		if !f.ListedAt.IsZero() {
			at := f.ListedAt
			fs.ListedAt = &at
		}
		s.Forges = append(s.Forges, fs)
	}
	if b.links != nil {
		s.BrokenLinks, s.LinkStatus, s.LinkError = b.links.Broken, b.links.Status, b.links.Error
	}
	s.LinkVerification = b.cfg.Daemon.LinkVerification.Enabled
	s.SiteServed, s.ServedBuild = servedSite(b.cfg, s.Builds)
	s.Stages = b.stageRows()
	if b.nextSync != nil {
		if next := b.nextSync(); !next.IsZero() {
			s.NextSync = &next
		}
	}
	return s
}

// repoStatus returns the status entry of a repository, creating it for
// one discovery found since the daemon started; the caller holds mu.
func (b *backend) repoStatus(r config.Repository) *admin.RepoStatus {
	st, ok := b.repos[r.Name]
	if !ok {
		st = &admin.RepoStatus{Name: r.Name, URL: r.RedactedURL()}
		b.repos[r.Name] = st
	}
	return st
}

// linksVerified takes a verification's figures for /metrics and /status,
// once per build.
func (b *backend) linksVerified(e *events.LinksVerified, m *metrics.Metrics) {
	b.mu.Lock()
	if slices.Contains(b.linkBuilds, e.BuildID) {
		b.mu.Unlock()
		return
	}
	b.linkBuilds = append(b.linkBuilds, e.BuildID)
	if len(b.linkBuilds) > historySize {
		b.linkBuilds = b.linkBuilds[1:]
	}
	lv := e.LinkVerification
	b.links = &lv
	b.mu.Unlock()
	m.ObserveLinks(lv.Checked, lv.Broken, lv.Cached)
}

// buildFinished counts a finished build in /metrics and updates each
// repository's status from its report.
func (b *backend) buildFinished(rep report.Report, m *metrics.Metrics) {
	if rep.Outcome == report.OutcomeSkipped {
		m.ObserveSkip("unchanged")
		return
	}
	m.ObserveBuild(rep)
	b.record(&rep)
}

// record updates each repository's status from a finished build's report.
func (b *backend) record(rep *report.Report) {
	b.mu.Lock()
	defer b.mu.Unlock()
	stale := map[string]bool{}
	for _, r := range rep.Repositories {
		repo, known := b.cfg.Repository(r.Name)
		if !known {
			continue
		}
		st := b.repoStatus(repo)
		renderFailed := r.Render != nil && r.Render.Outcome == report.RenderFailed
		stale[r.Name] = stale[r.Name] || (renderFailed && r.Render.Stale)
		if r.Status == "ok" && !renderFailed && (r.Version == "" || r.DefaultVersion) {
			st.Commit, st.LastError = r.Commit, ""
			at := rep.FinishedAt
			st.LastSuccess = &at
		}
	}
	for name, isStale := range stale {
		if repo, ok := b.cfg.Repository(name); ok {
			b.repoStatus(repo).Stale = isStale
		}
	}
	for _, is := range rep.Issues {
		if repo, ok := b.cfg.Repository(is.Repository); ok && is.Severity == report.SeverityError {
			b.repoStatus(repo).LastError = is.Code + ": " + is.Message
		}
	}
}

func statusOf(bl BuildRecord) admin.BuildStatus {
	return admin.BuildStatus{
		ID: bl.ID, Reason: bl.Reason, State: bl.State, SkipReason: bl.SkipReason,
		RequestedAt: bl.RequestedAt, FinishedAt: bl.FinishedAt, Report: bl.Report,
	}
}

// stageRows are /status's stages: every stage of the pipeline, with the
// live processes that run it (0 for one nobody runs) and its consumer's
// backlog.
func (b *backend) stageRows() []admin.StageStatus {
	var lag map[string]metrics.ConsumerLag
	if b.lag != nil {
		lag = b.lag()
	}
	var live map[string]int
	if b.processes != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		live, _ = b.processes(ctx)
		cancel()
	}
	names := map[string]bool{}
	for name := range lag {
		names[name] = true
	}
	for name := range live {
		names[name] = true
	}
	var rows []admin.StageStatus
	for _, name := range slices.Sorted(maps.Keys(names)) {
		l := lag[name]
		row := admin.StageStatus{Name: name, Pending: l.Pending, AckPending: l.AckPending, Redelivered: l.Redelivered}
		if live != nil {
			n := live[name]
			row.Processes = &n
		}
		rows = append(rows, row)
	}
	return rows
}
