package discover

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/gitx"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/versions"
)

// unit is one piece of a build: a repository, or with versioning one
// version of it. Each becomes one clone job (or reuses its saved tree).
type unit struct {
	job events.RepoClone // without its header
	// commit is the commit the remote's listing showed for a version; ""
	// when unknown (no versioning: the skip evaluation asks the remote).
	commit string
	// failure says why a versioned repository has no versions to build
	// (its refs could not be listed, or none matched the rules); such a
	// unit is recorded as failed without a clone job.
	failure *report.Issue
}

// listTimeout bounds one attempt at listing a remote's refs, so a hung
// server costs a retry rather than the whole build.
const listTimeout = 30 * time.Second

func (u unit) key() string { return u.job.Key() }

// units expands the configuration into the build's units: one per
// repository, or with versioning one per chosen version of each repository,
// discovered from the remotes in parallel.
func (s *stage) units(ctx context.Context) []unit {
	paths := ContentPaths(s.cfg)
	repos := s.cfg.AllRepositories()
	if !s.cfg.Versioning.Enabled {
		out := make([]unit, 0, len(repos))
		for _, r := range repos {
			out = append(out, unit{job: paths[r.Name]})
		}
		return out
	}
	perRepo := make([][]unit, len(repos))
	var wg sync.WaitGroup
	sem := make(chan struct{}, headConcurrency)
	for i, r := range repos {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			perRepo[i] = s.versionUnits(ctx, r, paths[r.Name])
		}()
	}
	wg.Wait()
	var out []unit
	for _, us := range perRepo {
		out = append(out, us...)
	}
	return out
}

// versionUnits lists one repository's branches and tags and turns the
// versions the rules choose into units placed at
// content/<repository path>/<version slug>/.
func (s *stage) versionUnits(ctx context.Context, r config.Repository, base events.RepoClone) []unit {
	refs, def, err := gitx.ListRefsRetrying(ctx, gitx.Request{
		URL: r.URL, Auth: r.Auth, AttemptTimeout: listTimeout,
	}, gitx.PolicyFor(s.cfg.Build))
	if err != nil {
		return []unit{{job: base, failure: discoveryFailure(r.Name, err)}}
	}
	if r.Branch != "" {
		def = r.Branch
	}
	chosen := versions.Select(refs, def, s.cfg.Versioning)
	if len(chosen) == 0 {
		return []unit{{job: base, failure: &report.Issue{
			Code: report.CodeBranchNotFound, Severity: report.SeverityError, Stage: Name, Repository: r.Name,
			Message: "no branch or tag of " + r.Name + " matches the versioning rules (strategy, branch_patterns, tag_patterns)",
		}}}
	}
	var issues []report.Issue
	if !hasDefault(chosen) {
		// The configured branch is not on the remote (or the patterns
		// leave it out): the first version stands in as the default, so
		// /docs/<repo>/ still leads somewhere — and the report says so.
		chosen[0].Default = true
		issues = append(issues, report.Issue{
			Code: report.CodeBranchNotFound, Severity: report.SeverityWarning, Stage: Name, Repository: r.Name, Version: chosen[0].Name,
			Message: fmt.Sprintf("default branch %q is not among the versions of %s; %s is the default version instead", def, r.Name, chosen[0].Name),
		})
	}
	out := make([]unit, 0, len(chosen))
	for rank, v := range chosen {
		job := base
		job.ContentPath = base.ContentPath + "/" + v.Slug
		job.Version = &events.Version{
			Name: v.Name, Ref: v.Ref, Slug: v.Slug, Tag: v.Tag, Default: v.Default, Commit: v.Commit, Rank: rank,
		}
		if v.Default {
			job.Issues = issues
		}
		out = append(out, unit{job: job, commit: v.Commit})
	}
	return out
}

func hasDefault(vs []versions.Version) bool {
	for _, v := range vs {
		if v.Default {
			return true
		}
	}
	return false
}

// discoveryFailure turns a failed listing into the repository's issue; gitx
// has already taken credentials out of the message.
func discoveryFailure(repo string, err error) *report.Issue {
	return gitx.Issue(report.Issue{Stage: Name, Repository: repo, Message: "list branches and tags"}, err)
}
