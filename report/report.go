// Package report is the build report: the one document that tells an
// operator what a build did, what failed and why. It is written to
// <output.directory>/build-report.json, carried in the build.finished event,
// and its issue codes are stable so that alerts and scripts can match them.
package report

import (
	"sort"
	"time"
)

// SchemaVersion is the version of the build report's JSON layout.
const SchemaVersion = 1

// Outcomes of a build.
const (
	OutcomeSuccess = "success" // every repository built and the site rendered
	OutcomePartial = "partial" // the site rendered, some repositories failed
	OutcomeFailed  = "failed"  // no new site (render failure, nothing to render)
	OutcomeSkipped = "skipped" // nothing changed since the last good build (daemon only)
)

// Severities of an issue.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// Issue codes. They are part of the public interface: documented in
// docs/build-report.md and never renamed.
const (
	CodeCloneAuth        = "CLONE_AUTH"
	CodeCloneNotFound    = "CLONE_NOT_FOUND"
	CodeBranchNotFound   = "BRANCH_NOT_FOUND"
	CodeCloneNetwork     = "CLONE_NETWORK"
	CodeCloneFailed      = "CLONE_FAILED"
	CodeDiverged         = "DIVERGED"
	CodeCorruptWorkspace = "CORRUPT_WORKSPACE"
	CodeDocsPathMissing  = "DOCS_PATH_MISSING"
	CodeNoDocs           = "NO_DOCS"
	CodeNoPages          = "NO_PAGES" // acquired and rendered, but no page: the build is partial
	CodeSymlinkEscape    = "SYMLINK_ESCAPE"
	CodeUnsafePath       = "UNSAFE_PATH"
	CodeDuplicatePath    = "DUPLICATE_PATH"
	CodePruneFailed      = "PRUNE_FAILED"
	CodeRenderFailed     = "RENDER_FAILED"
	CodeStageFailed      = "STAGE_FAILED"
	// CodeStageUnavailable: the build waited build.stage_timeout on a
	// stage that no live process runs, and failed.
	CodeStageUnavailable = "STAGE_UNAVAILABLE"

	// Input limits and trust (the clone stage, while collecting the tree).
	CodeFileTooLarge       = "FILE_TOO_LARGE"       // a file over build.limits.max_file_bytes, left out
	CodePageTooLarge       = "PAGE_TOO_LARGE"       // a page over build.limits.max_page_bytes, left out
	CodeRepositoryTooLarge = "REPOSITORY_TOO_LARGE" // over max_files or max_total_bytes: the repository is skipped
	CodeUntrustedFile      = "UNTRUSTED_FILE"       // an HTML/SVG/XML file of an untrusted repository, left out
	CodeHugoFileIgnored    = "HUGO_FILE_IGNORED"    // a file Hugo would run (content adapter) or read as site configuration, left out
	CodeToolFileIgnored    = "TOOL_FILE_IGNORED"    // another tool's theme templates, or what its ignore file (.bookignore) lists, left out

	// Page issues of the render stage (warnings: the site was rendered).
	CodeUnknownShortcode    = "UNKNOWN_SHORTCODE"       // an unknown shortcode shown as written, a GitBook block's tags dropped
	CodeRawSyntax           = "RAW_SYNTAX"              // a rendered page shows source syntax as text outside code
	CodeLinkUnresolved      = "LINK_UNRESOLVED"         // a link that leads to nothing in the repository's documentation
	CodeLinkFragmentMissing = "LINK_FRAGMENT_MISSING"   // a link's #fragment names no element (id) of the page it leads to
	CodeShortcodeInvalid    = "SHORTCODE_INVALID"       // a known shortcode's tag Hugo would refuse, dropped
	CodeFrontMatterInvalid  = "FRONT_MATTER_INVALID"    // front matter, or a key of it, ignored
	CodeShownAsText         = "CONSTRUCT_SHOWN_AS_TEXT" // Hugo could not render the page as written; what broke it is shown as text
	CodePageRenderFailed    = "PAGE_RENDER_FAILED"      // the page could not be rendered even so and was left out
	CodeToolConfigInvalid   = "TOOL_CONFIG_INVALID"     // mkdocs.yml could not be read; the menu keeps its default order
	CodeIndexShadowed       = "INDEX_SHADOWED"          // an index.md beside an _index.md, not rendered
	CodeIconUnknown         = "ICON_UNKNOWN"            // an MkDocs icon code no bundled icon set has, shown as an empty box
	CodeSnippetNotIncluded  = "SNIPPET_NOT_INCLUDED"    // an MkDocs snippet (--8<--) missing, outside the repository or over a limit, not included
	CodeIncludeUnresolved   = "INCLUDE_UNRESOLVED"      // an include (Hugo's include, readfile) that names no file of the repository, shown as written
	CodeXrefDuplicateID     = "XREF_DUPLICATE_ID"       // two pages of one repository version declare one front matter id (an error; the first keeps it)

	// Site issues of the assemble stage (warnings: the site was published).
	CodeURLConflict = "URL_CONFLICT" // two repositories claim one URL (page, alias, moved page); the first in configuration order keeps it
	// CodeLinkTargetRemoved is reported under the repository whose change
	// removed a page or an id that another repository's link named in the
	// last build (what a push breaks elsewhere); LinkedFrom names the link.
	CodeLinkTargetRemoved = "LINK_TARGET_REMOVED"
	// CodeXrefUnresolved is a link by id (xref:ID) whose id no page of the
	// site declares: an error, whatever build.broken_links says.
	CodeXrefUnresolved = "XREF_UNRESOLVED"
)

// Issue is one problem found during a build, structured so a machine can act
// on it and a person can read it.
type Issue struct {
	Code       string `json:"code"`
	Severity   string `json:"severity"`
	Stage      string `json:"stage"`
	Repository string `json:"repository,omitempty"`
	// Version is the branch or tag the issue belongs to, with versioning.
	Version   string `json:"version,omitempty"`
	Path      string `json:"path,omitempty"`
	Message   string `json:"message"`
	Transient bool   `json:"transient"`
	Attempts  int    `json:"attempts,omitempty"`
	// LinkedFrom names, for an issue about a link's target
	// (LINK_TARGET_REMOVED), the link: its repository, file and line.
	LinkedFrom *LinkSource `json:"linked_from,omitempty"`
}

// LinkSource is where a link is written, and what it names.
type LinkSource struct {
	Repository string `json:"repository"`
	Version    string `json:"version,omitempty"`
	Path       string `json:"path"`
	Line       int    `json:"line"`
	// URL is the site path the link names, Fragment its #fragment.
	URL      string `json:"url"`
	Fragment string `json:"fragment,omitempty"`
}

// Repository is what the build did with one repository — with versioning,
// with one version of it (one entry per version).
type Repository struct {
	Name        string `json:"name"`
	URL         string `json:"url"` // credentials redacted
	Forge       string `json:"forge"`
	ContentPath string `json:"content_path"`
	// Version is the branch or tag this entry built, with versioning; Ref
	// its full name; DefaultVersion marks the version /docs/<repo>/ leads to.
	Version        string `json:"version,omitempty"`
	Ref            string `json:"ref,omitempty"`
	DefaultVersion bool   `json:"default_version,omitempty"`
	// VersionRank orders a repository's versions as the switcher shows
	// them (0 the default, then newest first); it is not part of the JSON.
	VersionRank int    `json:"-"`
	Branch      string `json:"branch,omitempty"`
	Commit      string `json:"commit,omitempty"`
	Status      string `json:"status"` // ok | failed
	Attempts    int    `json:"attempts"`
	DocFiles    int    `json:"doc_files"`
	TreeHash    string `json:"tree_hash,omitempty"`
	// Reused is true when the repository was at its saved commit and its
	// documentation tree from the last good build was used without a clone.
	Reused bool `json:"reused,omitempty"`
	// Render is what became of the render of this repository (or version)
	// in this build; absent when it was not rendered (its acquisition
	// failed, or the build was skipped).
	Render *UnitRender `json:"render,omitempty"`
	// Reader counts what a reader of its pages meets: raw syntax, missing
	// images, dead links (CountForReaders).
	Reader *ReaderCounts `json:"reader,omitempty"`
}

// Outcomes of a unit's render.
const (
	RenderRendered = "rendered" // rendered by this build
	RenderReused   = "reused"   // its output was stored under its content address
	RenderFailed   = "failed"   // it could not be rendered (see the RENDER_FAILED issue)
)

// UnitRender is the render of one unit (a repository, or one version of
// it) in one build.
type UnitRender struct {
	Outcome string `json:"outcome"` // rendered | reused | failed
	// Stale is set on a failed unit whose last good pages, from an
	// earlier build, stay on the site.
	Stale      bool   `json:"stale,omitempty"`
	Pages      int    `json:"pages"`
	DurationMS int64  `json:"duration_ms"`
	Address    string `json:"address,omitempty"` // content address of its output
	Error      string `json:"error,omitempty"`
}

// UnitCounts counts the units' renders of a build.
type UnitCounts struct {
	Rendered int `json:"rendered"`
	Reused   int `json:"reused"`
	Failed   int `json:"failed"`
	// Stale counts the failed units whose last good pages stay on the site.
	Stale int `json:"stale"`
}

// StageDurationsNoteText is stage_durations_note: each stage's figure is
// its busy time summed over its messages, so a stage that handles
// repositories in parallel can add up to more than the build's wall time.
const StageDurationsNoteText = "busy time of each stage, summed over its messages; clone, join and render handle repositories and units in parallel, so their sums can exceed duration_ms, the wall time of the build"

// Report is the build report.
type Report struct {
	SchemaVersion    int              `json:"schema_version"`
	BuildID          string           `json:"build_id"`
	Reason           string           `json:"reason"`
	Outcome          string           `json:"outcome"`
	SkipReason       string           `json:"skip_reason,omitempty"`
	StartedAt        time.Time        `json:"started_at"`
	FinishedAt       time.Time        `json:"finished_at"`
	DurationMS       int64            `json:"duration_ms"`
	StageDurationsMS map[string]int64 `json:"stage_durations_ms"`
	// StageDurationsNote says, in the report itself, how to read
	// StageDurationsMS next to DurationMS (StageDurationsNoteText).
	StageDurationsNote string `json:"stage_durations_note,omitempty"`
	ClonedRepositories int    `json:"cloned_repositories"`
	// ReusedRepositories counts the repositories (or versions) still at
	// their saved commits, whose trees were reused without a clone: they
	// are on the site but not in ClonedRepositories.
	ReusedRepositories int `json:"reused_repositories,omitempty"`
	FailedRepositories int `json:"failed_repositories"`
	// EmptyRepositories counts the repositories (or versions) that were
	// acquired and rendered but gave no page (a NO_PAGES issue each): the
	// build is partial, as a misspelt path must not pass for success.
	EmptyRepositories int `json:"empty_repositories,omitempty"`
	// BrokenLinkErrors counts the links that lead nowhere which
	// build.broken_links: fail made errors (FailOnBrokenLinks): the build
	// is partial.
	BrokenLinkErrors int `json:"broken_link_errors,omitempty"`
	// Units counts the renders of the build's units: rendered, reused
	// from the store, failed. Absent when nothing was rendered.
	Units          *UnitCounts `json:"units,omitempty"`
	RenderedPages  int         `json:"rendered_pages"`
	StaticRendered bool        `json:"static_rendered"`
	DocFilesHash   string      `json:"doc_files_hash"`
	SiteHash       string      `json:"site_hash,omitempty"`
	// Redeliveries counts, per stage, messages of this build delivered more
	// than once: a stage process that died and was replaced, or a retried
	// transient failure.
	Redeliveries map[string]int `json:"redeliveries,omitempty"`
	Repositories []Repository   `json:"repositories"`
	// Versions summarises, per versioned repository, which versions the
	// site has and which failed (their reasons are in Issues). Absent
	// without versioning.
	Versions []RepositoryVersions `json:"versions,omitempty"`
	// Forges is how each configured forge's latest scan went; absent
	// without forges. A failed forge makes the build partial.
	Forges []Forge `json:"forges,omitempty"`
	Issues []Issue `json:"issues"`
	// IssueCounts counts Issues by code and severity, most frequent first.
	IssueCounts []IssueCount `json:"issue_counts,omitempty"`
	// IssuesOmitted is set in a report carried by a message
	// (build.finished, the admin API): the issues left out of Issues
	// there. build-report.json holds every issue.
	IssuesOmitted int `json:"issues_omitted,omitempty"`
	// RepositoriesOmitted is the same for Repositories (and their
	// Versions): a carried report names at most MaxCarriedRepositories,
	// those with problems first; the counts above cover every one.
	RepositoriesOmitted int `json:"repositories_omitted,omitempty"`
	// Links is what link verification found (docs/links.md). Verification
	// consumes the same site.rendered message as the stage that writes this
	// report and finishes later; that stage (fingerprint, the report's one
	// writer) adds this section to build-report.json (atomically) when
	// links.verified reaches it: it is absent while verification runs and
	// when verification is off.
	Links *LinkVerification `json:"links,omitempty"`
}

// RepositoryVersions lists one repository's versions in a build, newest
// first as the version switcher shows them.
type RepositoryVersions struct {
	Repository string   `json:"repository"`
	Default    string   `json:"default,omitempty"`
	Built      []string `json:"built"`
	Failed     []string `json:"failed,omitempty"`
}

// ExitCode maps a report to the process exit code of `docweave build`:
// 0 everything built, 1 the site rendered but repositories failed (to be
// acquired or rendered), gave no page, or the listing of a forge failed,
// 2 no site.
func (b *Report) ExitCode() int {
	switch {
	case !b.StaticRendered:
		return 2
	case b.FailedRepositories > 0 || b.EmptyRepositories > 0 || b.BrokenLinkErrors > 0 || b.FailedForges() > 0 || (b.Units != nil && b.Units.Failed > 0):
		return 1
	default:
		return 0
	}
}

// DecideOutcome fills Outcome from the counters.
func (b *Report) DecideOutcome() {
	switch b.ExitCode() {
	case 0:
		b.Outcome = OutcomeSuccess
	case 1:
		b.Outcome = OutcomePartial
	default:
		b.Outcome = OutcomeFailed
	}
}

// Statuses of a link verification run.
const (
	LinksComplete = "complete" // every link has a verdict and the cache worked
	LinksDegraded = "degraded" // verdicts are complete, but the cache could not be read or written
	LinksFailed   = "failed"   // verification gave up; no verdicts
)

// LinkVerification is the figures of one build's link verification, as the
// build report and the docweave.links.verified event carry them. Counts of
// links are counts of distinct targets (a URL used on fifty pages counts
// once); BrokenEvents counts the broken (page, target) pairs, one event each.
type LinkVerification struct {
	Status       string        `json:"status"`
	Error        string        `json:"error,omitempty"`
	Checked      int           `json:"checked"`
	Broken       int           `json:"broken"`
	Cached       int           `json:"cached"`
	NeedsAuth    int           `json:"needs_auth"`
	RateLimited  int           `json:"rate_limited"`
	Transient    int           `json:"transient"`
	Unverifiable int           `json:"unverifiable,omitempty"` // external fragments not checkable (check_fragments)
	Skipped      int           `json:"skipped"`
	Internal     int           `json:"internal"`
	External     int           `json:"external"`
	Requests     int           `json:"requests"`
	Pages        int           `json:"pages"`
	PagesParsed  int           `json:"pages_parsed"`
	BrokenEvents int           `json:"broken_events"`
	CacheErrors  int           `json:"cache_errors"`
	DurationMS   int64         `json:"duration_ms"`
	VerifiedAt   time.Time     `json:"verified_at"`
	BrokenLinks  []LinkProblem `json:"broken_links,omitempty"`
}

// MaxLinkProblems caps LinkVerification.BrokenLinks, so a site with
// thousands of broken links keeps a readable report and a small message;
// the broken-link events carry every one.
const MaxLinkProblems = 100

// LinkProblem is one broken link on one page, for people reading the report.
type LinkProblem struct {
	URL        string `json:"url"`
	Internal   bool   `json:"internal"`
	StatusCode int    `json:"status_code,omitempty"`
	Error      string `json:"error"`
	SourcePage string `json:"source_page"`
	SourceFile string `json:"source_file,omitempty"`
	Repository string `json:"repository,omitempty"`
	Version    string `json:"version,omitempty"` // the page's branch or tag, with versioning
}

// MaxCarriedIssues is how many issues a report carried in a message
// (build.finished) holds; build-report.json holds them all.
const MaxCarriedIssues = 100

// MaxCarriedRepositories is how many repository entries (repositories, or
// versions of them) a report carried in a message holds.
const MaxCarriedRepositories = 100

// IssueCount is how many issues of one code and severity a build had.
type IssueCount struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Count    int    `json:"count"`
}

// CountIssues fills IssueCounts from Issues, most frequent first.
func (b *Report) CountIssues() {
	type key struct{ code, severity string }
	n := map[key]int{}
	for _, is := range b.Issues {
		n[key{is.Code, is.Severity}]++
	}
	b.IssueCounts = make([]IssueCount, 0, len(n))
	for k, c := range n {
		b.IssueCounts = append(b.IssueCounts, IssueCount{Code: k.code, Severity: k.severity, Count: c})
	}
	sort.Slice(b.IssueCounts, func(i, j int) bool {
		a, c := b.IssueCounts[i], b.IssueCounts[j]
		if a.Count != c.Count {
			return a.Count > c.Count
		}
		if a.Code != c.Code {
			return a.Code < c.Code
		}
		return a.Severity < c.Severity
	})
}

// Bounded returns the report as a message carries it: at most
// MaxCarriedIssues issues, errors first, with IssuesOmitted counting the
// rest (IssueCounts still counts every one), and at most
// MaxCarriedRepositories repository entries, those not ok first, with
// RepositoriesOmitted counting the rest. A site with thousands of warnings
// or repositories would otherwise outgrow the broker's largest message.
func (b Report) Bounded() Report {
	if b.IssueCounts == nil {
		b.CountIssues()
	}
	b.boundRepositories()
	if len(b.Issues) <= MaxCarriedIssues {
		return b
	}
	kept := make([]Issue, 0, MaxCarriedIssues)
	for _, is := range b.Issues {
		if is.Severity == SeverityError && len(kept) < MaxCarriedIssues {
			kept = append(kept, is)
		}
	}
	for _, is := range b.Issues {
		if is.Severity != SeverityError && len(kept) < MaxCarriedIssues {
			kept = append(kept, is)
		}
	}
	b.IssuesOmitted = len(b.Issues) - len(kept)
	b.Issues = kept
	return b
}

// boundRepositories keeps MaxCarriedRepositories repository entries, those
// whose status is not ok first, in their order, and the versions of the
// repositories kept.
func (b *Report) boundRepositories() {
	if len(b.Repositories) <= MaxCarriedRepositories {
		return
	}
	kept := make([]Repository, 0, MaxCarriedRepositories)
	for _, pass := range []bool{false, true} {
		for _, r := range b.Repositories {
			if (r.Status == "ok") == pass && len(kept) < MaxCarriedRepositories {
				kept = append(kept, r)
			}
		}
	}
	SortRepositories(kept)
	names := map[string]bool{}
	for _, r := range kept {
		names[r.Name] = true
	}
	var versions []RepositoryVersions
	for _, v := range b.Versions {
		if names[v.Repository] {
			versions = append(versions, v)
		}
	}
	b.RepositoriesOmitted = len(b.Repositories) - len(kept)
	b.Repositories, b.Versions = kept, versions
}
