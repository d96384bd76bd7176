// Package preflight checks a configuration against its remotes before a
// build: each configured repository exists, its branch or tag is there,
// and each of its documentation paths is a folder at that ref. It asks
// each remote for its references and one commit's trees (gitx.ProbePaths),
// never for history, so a wrong URL, ref or path is named with its file,
// line and key in a second instead of surfacing as a failed or empty
// repository after the clones. `docweave validate --remote` prints it;
// `docweave build` runs it first.
package preflight

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/gitx"
	"github.com/docweave/docweave/report"
)

// Result is the check of one configured repository.
type Result struct {
	Repository config.Repository
	// Key is its key path ("repositories[0]").
	Key   string
	Probe *gitx.Probe
	// Problems are the configuration mistakes found; Unreachable is set
	// instead when the remote could not be asked (a network failure),
	// which says nothing about the configuration.
	Problems    []Problem
	Unreachable error
}

// Problem is one mistake, with where to fix it.
type Problem struct {
	// Code is the build report's code for the same mistake
	// (CLONE_NOT_FOUND, CLONE_AUTH, BRANCH_NOT_FOUND, DOCS_PATH_MISSING,
	// CLONE_FAILED).
	Code string
	// Where is "file:line" ("" when unknown), Key the key path and
	// Repository the repository's name.
	Where, Key, Repository string
	// Message says what is wrong and how to fix it.
	Message string
}

// String is "CODE file:line key (repository): message", the code once.
func (p Problem) String() string {
	s := p.Code + " "
	if p.Where != "" {
		s += p.Where + " "
	}
	return s + p.Key + " (" + p.Repository + "): " + p.Message
}

// attemptTimeout bounds each remote's check.
const attemptTimeout = 30 * time.Second

// Check probes every repository of the file (not those discovered on
// forges), at most concurrency at a time, and returns the results in the
// file's order.
func Check(ctx context.Context, cfg *config.Config, concurrency int) []Result {
	out := make([]Result, len(cfg.Repositories))
	sem := make(chan struct{}, max(1, concurrency))
	var wg sync.WaitGroup
	for i, r := range cfg.Repositories {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[i] = checkOne(ctx, cfg, i, r)
		}()
	}
	wg.Wait()
	return out
}

func checkOne(ctx context.Context, cfg *config.Config, i int, r config.Repository) Result {
	key := fmt.Sprintf("repositories[%d]", i)
	res := Result{Repository: r, Key: key}
	ctx, cancel := context.WithTimeout(ctx, attemptTimeout)
	defer cancel()
	paths := r.DocPaths()
	probe, err := gitx.ProbePaths(ctx, gitx.Request{URL: r.URL, Branch: r.Branch, Auth: r.Auth, AttemptTimeout: attemptTimeout}, paths)
	res.Probe = probe
	if err != nil {
		var gerr *gitx.Error
		if !errors.As(err, &gerr) || gerr.Transient {
			res.Unreachable = err
			return res
		}
		res.Problems = append(res.Problems, remoteProblem(cfg, key, r, gerr, probe))
		return res
	}
	for j, pc := range probe.Paths {
		if pc.Found {
			continue
		}
		pkey := fmt.Sprintf("%s.paths[%d]", key, j)
		if len(r.Paths) == 0 {
			pkey = key + ".paths" // the default, docs, not written in the file
		}
		res.Problems = append(res.Problems, Problem{Code: report.CodeDocsPathMissing, Where: cfg.Where(pkey), Key: pkey,
			Repository: r.Name, Message: pathMessage(pc, probe)})
	}
	return res
}

// remoteProblem explains a remote's refusal, pointing at the key to fix.
func remoteProblem(cfg *config.Config, key string, r config.Repository, gerr *gitx.Error, probe *gitx.Probe) Problem {
	cause := strings.Replace(gerr.Error(), gerr.Code+": ", "", 1)
	p := Problem{Code: gerr.Code, Key: key + ".url", Repository: r.Name}
	switch gerr.Code {
	case gitx.CodeNotFound:
		p.Message = fmt.Sprintf("no repository at this URL (%s); check the URL for typos, and that the configured credentials (%s.auth) may read it — forges answer \"not found\" for a private repository too", cause, key)
	case gitx.CodeAuth:
		p.Key = key + ".auth"
		p.Message = fmt.Sprintf("the remote refused the credentials (%s); check %s.auth", cause, key)
	case gitx.CodeBranchNotFound:
		p.Key = key + ".branch"
		p.Message = fmt.Sprintf("%s; %s", cause, refsHint(probe))
	default:
		p.Message = cause
	}
	p.Where = cfg.Where(p.Key)
	return p
}

// pathMessage says a path is not a folder at the ref and which folders
// exist at that level.
func pathMessage(pc gitx.PathCheck, probe *gitx.Probe) string {
	what := "is not in the repository"
	if pc.NotFolder {
		what = "is a file, not a folder,"
	}
	at := probe.Ref
	if len(probe.Commit) >= 7 {
		at += " (" + probe.Commit[:7] + ")"
	}
	level := "at the top of the repository"
	if pc.Parent != "." {
		level = "in " + pc.Parent + "/"
	}
	folders := "there are no folders " + level
	if len(pc.Folders) > 0 {
		folders = "folders " + level + ": " + listed(pc.Folders, 12)
	}
	return fmt.Sprintf("documentation path %q %s at %s; %s", pc.Path, what, at, folders)
}

// refsHint names the branches and tags the remote does have.
func refsHint(probe *gitx.Probe) string {
	if probe == nil || len(probe.Refs) == 0 {
		return "the remote has no branches"
	}
	branches, tags := splitRefs(probe.Refs)
	s := "the remote has branches " + listed(branches, 8)
	if len(tags) > 0 {
		s += " and tags " + listed(tags, 8)
	}
	if probe.DefaultBranch != "" {
		s += "; leave branch out for the default, " + probe.DefaultBranch
	}
	return s
}

// listed joins at most n names, saying how many more there are.
func listed(names []string, n int) string {
	if len(names) == 0 {
		return "none"
	}
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// splitRefs names the branches and the tags of a listing apart.
func splitRefs(refs []gitx.RemoteRef) (branches, tags []string) {
	for _, r := range refs {
		if r.Tag {
			tags = append(tags, r.Name)
		} else {
			branches = append(branches, r.Name)
		}
	}
	return branches, tags
}
