package discover

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/gitx"
	"github.com/docweave/docweave/internal/words"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/version"
)

// headConcurrency bounds the remote-head queries of one decision; they are
// small requests, so more run at once than clones do.
const headConcurrency = 16

// plan is the outcome of the skip evaluation.
type plan struct {
	skip   bool
	reason string
	// reuse holds, by unit key, the saved outcome of every repository (or
	// version) that is still at its saved commit and whose tree is still stored.
	reuse map[string]events.RepoOutcome
	state *buildstate.SiteState
}

// evaluate compares the builder version, the configuration, every unit's
// remote commit and the published site with the state the last good build
// saved — the spec's skip evaluation, taken before any clone. With
// versioning a new tag or a moved branch is a change; so is a version
// that is no longer chosen (it must leave the site).
func (s *stage) evaluate(ctx context.Context, units []unit) (plan, error) {
	st, err := s.states.Load(ctx)
	if err != nil {
		return plan{}, err
	}
	switch {
	case st == nil:
		return plan{reason: "no previous build"}, nil
	case st.BuilderVersion != version.String():
		return plan{reason: fmt.Sprintf("builder version changed (%s → %s)", st.BuilderVersion, version.String())}, nil
	case st.ConfigHash != s.cfg.Hash() && (st.AcquisitionHash == "" || st.AcquisitionHash != s.cfg.AcquisitionHash()):
		return plan{reason: "configuration changed"}, nil
	}
	p := plan{reuse: map[string]events.RepoOutcome{}, state: st}
	if st.ConfigHash != s.cfg.Hash() {
		// Only the site settings changed: the trees of repositories still
		// at their saved commits are reused, and every unit is rendered
		// again with the new settings (their content addresses changed).
		s.changedUnits(ctx, st, units, p.reuse)
		p.reason = "site settings changed"
		return p, nil
	}
	// The site check reads every published file and the head queries wait
	// on remotes: run them side by side, the decision waits for the slower.
	// A changed repository decides the build before the site check ends;
	// the check then stops instead of reading the site beside the render.
	siteCtx, stopSiteCheck := context.WithCancel(ctx)
	defer stopSiteCheck()
	intact := make(chan bool, 1)
	go func() { intact <- s.siteIntact(siteCtx, st.SiteHash) }()
	changed := s.changedUnits(ctx, st, units, p.reuse)
	current := make(map[string]bool, len(units))
	for _, u := range units {
		current[u.key()] = true
	}
	for key := range st.Repositories {
		if !current[key] {
			changed = append(changed, key+" (removed)")
		}
	}
	if len(changed) > 0 {
		sort.Strings(changed)
		p.reason = "changed: " + strings.Join(changed, ", ")
		return p, nil
	}
	if !<-intact {
		p.reason = "published site differs from the last good build"
		return p, nil
	}
	p.skip = true
	p.reason = fmt.Sprintf("nothing changed: %s at their saved commits, same configuration and builder, published site intact", words.Count(len(p.reuse), "repository", "repositories"))
	if s.cfg.Versioning.Enabled {
		p.reason = fmt.Sprintf("nothing changed: %s at their saved commits, same configuration and builder, published site intact", words.Plural(len(p.reuse), "version"))
	}
	return p, nil
}

// changedUnits finds each unit's current commit — from the version listing,
// or by asking the remote for its head, in parallel — fills reuse with the
// units that did not move and returns the others. A remote that cannot be
// asked counts as changed: the clone stage will then try it properly, with
// retries, and report what is wrong.
func (s *stage) changedUnits(ctx context.Context, st *buildstate.SiteState, units []unit, reuse map[string]events.RepoOutcome) []string {
	var (
		mu      sync.Mutex
		changed []string
		wg      sync.WaitGroup
		sem     = make(chan struct{}, headConcurrency)
	)
	for _, u := range units {
		key := u.key()
		saved, ok := st.Repositories[key]
		switch {
		case u.failure != nil:
			changed = append(changed, key+" (versions unknown)")
			continue
		case !ok:
			changed = append(changed, key+" (not in the last good build)")
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			head, err := u.commit, error(nil)
			if head == "" {
				sem <- struct{}{}
				defer func() { <-sem }()
				r, _ := s.cfg.Repository(u.job.Repository)
				hctx, cancel := context.WithTimeout(ctx, 30*time.Second)
				defer cancel()
				head, _, err = gitx.RemoteHead(hctx, r.URL, r.Branch, r.Auth)
			}
			stored := false
			if err == nil && head == saved.Commit {
				stored, _ = s.store.Has(ctx, artifact.Ref(saved.Tree))
			}
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				changed = append(changed, key+" (remote head unknown)")
			case head != saved.Commit:
				changed = append(changed, key)
			case !stored:
				changed = append(changed, key+" (saved tree missing)")
			default:
				reuse[key] = saved
			}
		}()
	}
	wg.Wait()
	return changed
}

// skipped is the build.finished event of a skipped build: its report
// carries the reason and what the last good build published, each
// repository with its URL (credentials redacted) as a built one has.
func skipped(cfg *config.Config, req *events.BuildRequested, p plan, took time.Duration) *events.BuildFinished {
	now := time.Now().UTC()
	rep := report.Report{
		SchemaVersion:      report.SchemaVersion,
		BuildID:            req.BuildID,
		Reason:             req.Reason,
		Outcome:            report.OutcomeSkipped,
		SkipReason:         p.reason,
		StartedAt:          req.Time,
		FinishedAt:         now,
		DurationMS:         now.Sub(req.Time).Milliseconds(),
		StageDurationsMS:   map[string]int64{Name: took.Milliseconds()},
		StageDurationsNote: report.StageDurationsNoteText,
		StaticRendered:     true,
		RenderedPages:      p.state.Pages,
		DocFilesHash:       p.state.DocFilesHash,
		SiteHash:           p.state.SiteHash,
		Repositories:       []report.Repository{},
		Issues:             []report.Issue{},
	}
	for _, o := range p.state.Repositories {
		url := ""
		if r, ok := cfg.Repository(o.Repository); ok {
			url = r.RedactedURL()
		}
		entry := o.ReportEntry(url)
		entry.Reused = true
		rep.Repositories = append(rep.Repositories, entry)
		rep.ReusedRepositories++
	}
	report.SortRepositories(rep.Repositories)
	rep.Versions = report.VersionsOf(rep.Repositories)
	return &events.BuildFinished{
		Header: events.Header{ID: "build.finished:" + req.BuildID, BuildID: req.BuildID},
		Report: rep,
	}
}

// siteIntact checks the published site against the saved state. With a
// shared artifact store the site lives there (docs servers fetch it by
// hash), so it must still be stored; otherwise the local public directory
// must hash to the saved value.
func (s *stage) siteIntact(ctx context.Context, saved string) bool {
	if artifact.IsShared(s.store) {
		has, err := s.store.Has(ctx, artifact.Ref(saved))
		return err == nil && has
	}
	ref, _, err := artifact.HashDirContext(ctx, filepath.Join(s.cfg.Output.Directory, "public"))
	return err == nil && string(ref) == saved
}
