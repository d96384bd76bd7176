package events

import (
	"time"

	"github.com/docweave/docweave/report"
)

// Schema versions, one per message type. Bump one when its payload changes
// incompatibly, and keep decoding the previous version for a release.
const (
	BuildRequestedVersion = 1
	RepoCloneVersion      = 1
	RepoClonedVersion     = 1
	RepoPrunedVersion     = 1
	ContentReadyVersion   = 2 // 2: outcomes by reference
	SiteRenderedVersion   = 2 // 2: outcomes and units by reference
	SitePublishedVersion  = 1
	BuildFinishedVersion  = 1
	StageFailedVersion    = 1
)

// Timings are the milliseconds each stage spent on the work a message
// describes, carried along so the report can show per-stage durations even
// when stages run in different processes.
type Timings map[string]int64

// BuildRequested asks for a build. Triggers (command line, cron, webhook,
// admin API) publish it; the discover stage consumes it.
type BuildRequested struct {
	Header
	Reason string `json:"reason"` // cli | startup | cron | webhook | admin
	Direct bool   `json:"direct"` // a command-line build: never skipped
	// VerifyLinks asks for link verification of a direct build
	// (`docweave build --verify-links`); daemon builds follow
	// daemon.link_verification.enabled instead.
	VerifyLinks bool `json:"verify_links,omitempty"`
	// Repositories the trigger named (a webhook's push), for the record:
	// every build evaluates every repository, reusing unchanged ones.
	Repositories []string `json:"repositories,omitempty"`
	ConfigHash   string   `json:"config_hash"`
}

// Subject implements Event.
func (*BuildRequested) Subject() string { return SubjectBuildRequested }

// Version names one documentation version of a repository when
// versioning is enabled: a branch or tag chosen by discover from the
// remote's listing. Without versioning, messages carry no version and a
// repository is built from its configured (or default) branch.
type Version struct {
	Name    string `json:"name"`              // branch or tag name: "main", "v1.1.0", "feature/x"
	Ref     string `json:"ref"`               // full name cloned: refs/heads/… or refs/tags/…
	Slug    string `json:"slug"`              // its directory below the repository's content path and its URL segment
	Tag     bool   `json:"tag,omitempty"`     // a tag rather than a branch
	Default bool   `json:"default,omitempty"` // the version /docs/<repo>/ leads to
	Commit  string `json:"commit,omitempty"`  // the commit the listing showed (annotated tags peeled)
	Rank    int    `json:"rank"`              // position among the repository's versions: 0 is the default, then newest first
}

// UnitKey names one unit of a build — a repository, or one version of it —
// in the build's join, the saved state and message IDs: the repository
// name, or "<repository>@<version name>".
func UnitKey(repository string, v *Version) string {
	if v == nil {
		return repository
	}
	return repository + "@" + v.Name
}

// RepoClone asks the clone stage to acquire one repository (or one version
// of it) for a build.
type RepoClone struct {
	Header
	Repository  string   `json:"repository"`
	Forge       string   `json:"forge"`
	ContentPath string   `json:"content_path"` // where its docs go under content/ (a version's own directory when versioned)
	Version     *Version `json:"version,omitempty"`
	// Issues are problems discover found with this unit (a configured
	// branch missing among the versions, say); they join its outcome.
	IssueList
}

// Key is the job's unit key (UnitKey).
func (m *RepoClone) Key() string { return UnitKey(m.Repository, m.Version) }

// Subject implements Event.
func (*RepoClone) Subject() string { return SubjectRepoClone }

// RepoCloned reports the acquisition of one repository, successful or not;
// a failure is data here, so the build can go on without it.
type RepoCloned struct {
	Header
	Repository  string   `json:"repository"`
	Forge       string   `json:"forge"`
	ContentPath string   `json:"content_path"`
	Version     *Version `json:"version,omitempty"`
	Branch      string   `json:"branch,omitempty"`
	Commit      string   `json:"commit,omitempty"`
	// CommitTime is when Commit was made (the front page's "last
	// updated").
	CommitTime time.Time `json:"commit_time,omitzero"`
	// Tree is the artifact reference of the documentation collected from
	// the checkout; DocFiles the number of files in it.
	Tree     string        `json:"tree,omitempty"`
	DocFiles int           `json:"doc_files"`
	Attempts int           `json:"attempts"`
	Failure  *report.Issue `json:"failure,omitempty"`
	// Issues are the problems of its acquisition (files left out, say).
	IssueList
	Timings Timings `json:"timings"`
}

// Subject implements Event.
func (*RepoCloned) Subject() string { return SubjectRepoCloned }

// Key is the unit key of the acquired repository or version (UnitKey).
func (m *RepoCloned) Key() string { return UnitKey(m.Repository, m.Version) }

// RepoOutcome is the final word on one repository (or one version of it)
// in one build: its documentation tree (by content hash) or why there is
// none.
type RepoOutcome struct {
	Repository  string    `json:"repository"`
	Forge       string    `json:"forge"`
	ContentPath string    `json:"content_path"`
	Version     *Version  `json:"version,omitempty"`
	Branch      string    `json:"branch,omitempty"`
	Commit      string    `json:"commit,omitempty"`
	CommitTime  time.Time `json:"commit_time,omitzero"`
	Tree        string    `json:"tree,omitempty"` // artifact reference of the docs tree
	DocFiles    int       `json:"doc_files"`
	Attempts    int       `json:"attempts"`
	Failed      bool      `json:"failed"`
	Reused      bool      `json:"reused,omitempty"` // tree of the last good build, not cloned again
	IssueList
	Timings Timings `json:"timings"`
}

// Key is the outcome's unit key (UnitKey).
func (o RepoOutcome) Key() string { return UnitKey(o.Repository, o.Version) }

// RepoPruned carries one repository's outcome after pruning; the last one of
// a build completes the join and is followed by ContentReady.
type RepoPruned struct {
	Header
	Outcome RepoOutcome `json:"outcome"`
}

// Subject implements Event.
func (*RepoPruned) Subject() string { return SubjectRepoPruned }

// ContentReady says every repository of a build has an outcome; the
// assemble stage consumes it. The outcomes travel by reference (a list
// grows with the units; see docs/events.md).
type ContentReady struct {
	Header
	// OutcomesRef is the artifact reference of the units' outcomes
	// ([]RepoOutcome, sorted by unit key: repository, then version);
	// Units is how many it holds.
	OutcomesRef string `json:"outcomes_ref"`
	Units       int    `json:"units"`
}

// Subject implements Event.
func (*ContentReady) Subject() string { return SubjectContentReady }

// SiteRendered reports the render of a build's site, successful or not:
// the assemble stage sends it once the site is published, or could not
// be, or was not because a newer build had published already.
type SiteRendered struct {
	Header
	OK    bool   `json:"ok"`
	Site  string `json:"site,omitempty"` // artifact reference of the published site
	Pages int    `json:"pages"`
	Files int    `json:"files"`
	// OutcomesRef is the artifact reference of the units' acquisition
	// outcomes ([]RepoOutcome), as build.content_ready carried it, and
	// Outcomes their number.
	OutcomesRef string `json:"outcomes_ref"`
	Outcomes    int    `json:"outcomes"`
	// UnitsRef is the artifact reference of what became of each unit's
	// render ([]UnitOutcome: rendered, reused, failed, in unit key
	// order; a failed unit whose last good output is on the site is
	// marked stale); "" when nothing was rendered. Units is their number.
	UnitsRef string `json:"units_ref,omitempty"`
	Units    int    `json:"units"`
	// URLs is the artifact reference of the page URLs the site published
	// (and the old URLs of moved pages it redirects; renders.PutURLs), for
	// the saved state: the next build redirects the ones that move.
	URLs string `json:"urls,omitempty"`
	// Superseded is set when a newer build had already published: this
	// build's site was not published (OK is false).
	Superseded bool `json:"superseded,omitempty"`
	// Direct and VerifyLinks are the build request's flags (a command-line
	// build, and its --verify-links), carried for the stages after the
	// site: verifylinks decides from them.
	Direct      bool `json:"direct,omitempty"`
	VerifyLinks bool `json:"verify_links,omitempty"`
	// Issues are the site's own (URL conflicts, a failed assembly) and
	// every unit's render issues.
	IssueList
	Timings Timings `json:"timings"`
}

// Subject implements Event.
func (*SiteRendered) Subject() string { return SubjectSiteRendered }

// SitePublished announces that a new site is live: docs servers serve it
// and live-reload clients reload. The publishreload stage sends it.
type SitePublished struct {
	Header
	Site  string `json:"site"` // artifact reference of the published site
	Pages int    `json:"pages"`
}

// Subject implements Event.
func (*SitePublished) Subject() string { return SubjectSitePublished }

// BuildFinished carries the final build report, bounded
// (report.Report.Bounded): a long report travels by reference as well.
type BuildFinished struct {
	Header
	Report report.Report `json:"report"`
	// ReportRef is the artifact reference of the whole report (JSON) when
	// the carried one left issues or repositories out; absent otherwise.
	// build-report.json holds it too.
	ReportRef string `json:"report_ref,omitempty"`
}

// Subject implements Event.
func (*BuildFinished) Subject() string { return SubjectBuildFinished }

// StageFailed records a message a stage gave up on (a poison message or one
// that exhausted its deliveries), so nothing disappears silently.
type StageFailed struct {
	Header
	Stage      string    `json:"stage"`
	MessageID  string    `json:"message_id"`
	OnSubject  string    `json:"on_subject"`
	Reason     string    `json:"reason"`
	Deliveries uint64    `json:"deliveries"`
	FailedAt   time.Time `json:"failed_at"`
}

// Subject implements Event.
func (*StageFailed) Subject() string { return SubjectStageFailed }

// PublishedURL is a URL a site published, with what finds its page again
// when the URL changes: the repository (and forge, "" when URLs were not
// namespaced by forge), the version's slug ("" without versioning), the
// page's path below its unit's root, and the hash of its content (for a
// renamed file). Changed is when its content last changed, as far as
// docweave saw: the commit time of the build in which its hash was new
// (the front page's "recently updated"); zero when unknown.
type PublishedURL struct {
	URL        string    `json:"url"`
	Repository string    `json:"repo"`
	Forge      string    `json:"forge,omitempty"`
	Version    string    `json:"version,omitempty"`
	Path       string    `json:"path"`
	Hash       string    `json:"hash,omitempty"`
	Changed    time.Time `json:"changed,omitzero"`
}
