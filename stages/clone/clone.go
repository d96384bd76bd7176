// Package clone is the acquisition stage: it brings one repository's
// working copy (with versioning, one version's: its branch or tag) into the
// workspace (fresh clone, or update of a cached one),
// prunes the workspace and collects the documentation roots into a
// content-addressed tree, and reports the commit and the tree. Only the
// tree's reference leaves this process, so any replica of the next stage can
// take it. A repository that cannot be acquired is a result, not a stage
// failure: the report records it and the build goes on.
package clone

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/docstree"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/gitx"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/stages"
	"github.com/docweave/docweave/workspace"
)

// Name is the stage name.
const Name = stages.Clone

func init() { pipeline.Register(Name, New) }

// New builds the stage; its concurrency is clone_concurrency, bounded by
// the number of repositories — unless versioning is on: then each
// repository brings several jobs, one per version, cloned in parallel.
func New(d pipeline.Deps) (pipeline.Stage, error) {
	s := &stage{cfg: d.Config, layout: workspace.For(d.Config), store: d.Store, log: d.Log}
	conc := d.Config.Build.CloneConcurrency
	// Discovered repositories come and go, so only a fixed list bounds
	// the workers.
	if n := len(d.Config.Repositories); n > 0 && conc > n && !d.Config.Versioning.Enabled && len(d.Config.Forges) == 0 {
		conc = n
	}
	return pipeline.Stage{
		Name: Name, Subjects: []string{events.SubjectRepoClone}, Handle: pipeline.On(Name, s.handle),
		Publishes:   []string{events.SubjectRepoCloned},
		Concurrency: conc,
	}, nil
}

type stage struct {
	cfg    *config.Config
	layout workspace.Layout
	store  artifact.Store
	log    zerolog.Logger
}

func (s *stage) handle(ctx context.Context, job *events.RepoClone) ([]events.Event, error) {
	start := time.Now()
	repo, ok := s.cfg.Repository(job.Repository)
	if !ok && len(s.cfg.Forges) > 0 {
		// Discovered a moment ago by another process, or gone since.
		if err := s.cfg.RefreshDiscovered(ctx); err != nil {
			return nil, fmt.Errorf("clone %s: reload the discovered repositories: %w", job.Repository, err)
		}
		if repo, ok = s.cfg.Repository(job.Repository); !ok {
			return []events.Event{vanished(job, start)}, nil
		}
	}
	if !ok {
		return nil, pipeline.Permanentf("clone: repository %q is not in this process's configuration", job.Repository)
	}
	// Each version has a checkout of its own, so versions of one
	// repository clone in parallel and never share a working tree.
	unitKey, branch, workName := job.Key(), repo.Branch, workspace.CheckoutName(repo.Name, "")
	if job.Version != nil {
		branch, workName = job.Version.Ref, workspace.CheckoutName(repo.Name, job.Version.Slug)
	}
	strategy := s.cfg.Build.CloneStrategy
	key := workspace.CacheKey(workName)
	if strategy == "" || strategy == "fresh" {
		strategy = "fresh"
		key = workspace.FreshKey(job.BuildID, workName)
	}
	dir, err := s.layout.Dir(key)
	if err != nil {
		return nil, pipeline.Permanent(err)
	}
	if err := os.MkdirAll(s.layout.Root, 0o755); err != nil {
		return nil, err
	}
	log := s.log.With().Str("build_id", job.BuildID).Str("repository", unitKey).Logger()
	res, err := gitx.Acquire(ctx, gitx.Request{
		URL: repo.URL, Branch: branch, Depth: s.cfg.Build.ShallowDepth, Auth: repo.Auth,
		Dir: dir, Strategy: strategy, Sparse: SparseFor(s.cfg.Build, repo), Referenced: referencedBy(s.cfg, repo),
		HardResetOnDiverge: s.cfg.Build.HardResetOnDiverge, CleanUntracked: s.cfg.Build.CleanUntracked,
		MaxFileBytes: int64(s.cfg.Build.Limits.MaxFileBytes),
	}, gitx.PolicyFor(s.cfg.Build))
	out := &events.RepoCloned{
		Header:      events.Header{ID: "repo.cloned:" + job.BuildID + ":" + unitKey, BuildID: job.BuildID},
		Repository:  repo.Name,
		Forge:       job.Forge,
		ContentPath: job.ContentPath,
		Version:     job.Version,
		IssueList:   events.Issued(slices.Clone(job.Issues)...),
		Timings:     events.Timings{Name: time.Since(start).Milliseconds()},
	}
	if err != nil && ctx.Err() != nil {
		// The process is stopping (or the delivery was given up): not the
		// repository's failure. The message goes back to the broker and a
		// replica, or this process's next run, clones it.
		if strategy == "fresh" {
			_ = os.RemoveAll(dir)
		}
		return nil, fmt.Errorf("clone %s: stopped before it finished: %w", unitKey, ctx.Err())
	}
	if err != nil {
		out.Failure = failure(repo, job.Version, err)
		out.Attempts = out.Failure.Attempts
		log.Warn().Str("code", out.Failure.Code).Bool("transient", out.Failure.Transient).Int("attempts", out.Attempts).Msg(out.Failure.Message)
		if strategy == "fresh" {
			_ = os.RemoveAll(dir)
		}
		return []events.Event{out}, nil
	}
	out.Branch, out.Commit, out.CommitTime, out.Attempts = res.Branch, res.Commit, res.CommitTime, res.Attempts
	if job.Version != nil {
		// A tag is checked out detached; the report names it, not "HEAD".
		out.Branch = job.Version.Name
	}
	out.Issues = append(out.Issues, stamp(skippedIssues(res.Skipped, repo.DocPaths()), repo.Name, out.Version)...)
	// A fresh checkout is removed once collected: the store may keep its
	// files themselves (hard links) rather than copies.
	if err := s.collect(ctx, repo, dir, res.Referenced, out, strategy == "fresh"); err != nil {
		var tooLarge *docstree.TooLargeError
		if !errors.As(err, &tooLarge) {
			return nil, err
		}
		// Over a limit as a whole: skipped and reported like a repository
		// that could not be cloned; nothing of it was stored.
		out.Failure = &stamp([]report.Issue{tooLarge.Issue}, repo.Name, out.Version)[0]
		log.Warn().Str("code", out.Failure.Code).Msg(out.Failure.Message)
		if strategy == "fresh" {
			_ = os.RemoveAll(dir)
		}
		return []events.Event{out}, nil
	}
	if strategy == "fresh" {
		if err := os.RemoveAll(dir); err != nil {
			log.Warn().Err(err).Msg("could not remove the build's checkout")
		}
	}
	out.Timings[Name] = time.Since(start).Milliseconds()
	log.Info().Str("commit", res.Commit).Str("branch", res.Branch).Int("attempts", res.Attempts).
		Bool("partial", res.Partial).Int("checked_out", res.Files).Int("doc_files", out.DocFiles).Msg("repository acquired")
	return []events.Event{out}, nil
}

// SparseFor is what build.sparse_checkout acquires of a repository: its
// documentation roots and the top-level entries prune_allow names, without
// those prune_deny removes when pruning is on; nil (everything) when
// sparse_checkout is off.
func SparseFor(b config.BuildSettings, r config.Repository) *gitx.Sparse {
	if !b.SparseCheckout {
		return nil
	}
	// The tool configuration files at the root come along (docstree).
	sp := &gitx.Sparse{Paths: r.DocPaths(), Include: append(slices.Clone(b.PruneAllow), docstree.ToolConfigFiles...)}
	if b.PruneNonDocPaths {
		sp.Exclude = b.PruneDeny
	}
	return sp
}

// collect prunes the checkout (prune_non_doc_paths) and stores its
// documentation roots, and the files their pages reference, as a tree; problems with single entries become
// issues of the repository.
func (s *stage) collect(ctx context.Context, repo config.Repository, dir string, referenced []string, out *events.RepoCloned, owned bool) error {
	if s.cfg.Build.PruneNonDocPaths {
		allow := append(slices.Clone(s.cfg.Build.PruneAllow), docstree.ToolConfigFiles...)
		// The referenced files' folders are kept like the roots.
		issues, err := docstree.PruneWorkspace(dir, append(repo.DocPaths(), referenced...), allow, s.cfg.Build.PruneDeny)
		if err != nil {
			return fmt.Errorf("prune workspace of %s: %w", repo.Name, err)
		}
		out.Issues = append(out.Issues, stamp(issues, repo.Name, out.Version)...)
	}
	files, issues, err := docstree.CollectDocsWith(dir, repo.DocPaths(), referenced, docstree.PolicyFor(s.cfg, repo))
	if err != nil {
		return fmt.Errorf("collect docs of %s: %w", repo.Name, err)
	}
	out.Issues = append(out.Issues, stamp(issues, repo.Name, out.Version)...)
	for i := range files {
		files[i].Owned = owned
	}
	ref, err := s.store.PutTree(ctx, files)
	if err != nil {
		return fmt.Errorf("store docs of %s: %w", repo.Name, err)
	}
	out.Tree, out.DocFiles = string(ref), len(files)
	return nil
}

// skippedIssues reports the tree entries the checkout left out because
// their names are unsafe, one UNSAFE_PATH issue each — those under a
// documentation root; the rest of the repository is not published anyway.
func skippedIssues(skipped []gitx.SkippedPath, roots []string) []report.Issue {
	var out []report.Issue
	for _, sk := range skipped {
		if !underRoots(sk.Path, roots) {
			continue
		}
		out = append(out, report.Issue{Code: report.CodeUnsafePath, Path: sk.Shown(),
			Message: fmt.Sprintf("%s left out: %s", sk.Shown(), sk.Reason)})
	}
	return out
}

// underRoots reports whether a repository path lies under one of the
// documentation roots ("." is the whole repository).
func underRoots(p string, roots []string) bool {
	for _, r := range roots {
		r = path.Clean(r)
		if r == "." || p == r || strings.HasPrefix(p, r+"/") {
			return true
		}
	}
	return false
}

func stamp(issues []report.Issue, repo string, v *events.Version) []report.Issue {
	for i := range issues {
		issues[i].Stage, issues[i].Repository = Name, repo
		if v != nil {
			issues[i].Version = v.Name
		}
		if issues[i].Severity == "" {
			issues[i].Severity = report.SeverityWarning
		}
	}
	return issues
}

// vanished is the outcome of a job for a discovered repository that left
// its forge (or the discovery settings) after the build began.
func vanished(job *events.RepoClone, start time.Time) *events.RepoCloned {
	unitKey := job.Key()
	issue := &report.Issue{
		Code: report.CodeCloneNotFound, Severity: report.SeverityError, Stage: Name, Repository: job.Repository,
		Message: fmt.Sprintf("repository %s is no longer discovered from its forge; it leaves the site", job.Repository),
	}
	if job.Version != nil {
		issue.Version = job.Version.Name
	}
	return &events.RepoCloned{
		Header:     events.Header{ID: "repo.cloned:" + job.BuildID + ":" + unitKey, BuildID: job.BuildID},
		Repository: job.Repository, Forge: job.Forge, ContentPath: job.ContentPath, Version: job.Version,
		Failure: issue, Attempts: 0, IssueList: events.Issued(slices.Clone(job.Issues)...),
		Timings: events.Timings{Name: time.Since(start).Milliseconds()},
	}
}

// failure turns an acquisition error into a report issue; gitx has already
// redacted credentials from the message.
func failure(repo config.Repository, v *events.Version, err error) *report.Issue {
	base := report.Issue{Stage: Name, Repository: repo.Name}
	if v != nil {
		base.Version = v.Name
	}
	return gitx.Issue(base, err)
}
