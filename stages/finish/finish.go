// Package finish closes a build: it computes doc_files_hash, the
// fingerprint of the documentation set (paths and contents of every
// documentation file, through the content-addressed trees), assembles the
// build report, writes it to <output.directory>/build-report.json and
// announces the finished build. It owns that file: when link verification
// ends (links.verified), it adds the figures to it.
package finish

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/discovery"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/renders"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/spill"
	"github.com/docweave/docweave/stages"
	"github.com/docweave/docweave/version"
)

// Name is the stage name.
const Name = stages.Finish

// ReportFile is the report's file name inside output.directory.
const ReportFile = "build-report.json"

func init() { pipeline.Register(Name, New, stages.FormerFinish) }

// New builds the stage.
func New(d pipeline.Deps) (pipeline.Stage, error) {
	s := &stage{cfg: d.Config, store: d.Store, builds: d.FanIns, states: d.States, log: d.Log, scratch: d.Scratch("finish")}
	return pipeline.Stage{Name: Name, Subjects: []string{events.SubjectSiteRendered, events.SubjectLinksVerified}, Handle: s.handle,
		Publishes: []string{events.SubjectBuildFinished, events.SubjectLinksReported}}, nil
}

type stage struct {
	cfg     *config.Config
	store   artifact.Store
	builds  *buildstate.FanIns
	states  *buildstate.States
	log     zerolog.Logger
	scratch string // for the issue lists read from the store
}

// DocFilesHash fingerprints a documentation set: the sha256 of each
// successful repository's content path and tree reference, in content-path
// order. A tree reference already covers every file's path and content, so
// any edit, rename, addition or removal changes the hash.
func DocFilesHash(outcomes []events.RepoOutcome) string {
	var lines []string
	for _, o := range outcomes {
		if !o.Failed && o.Tree != "" {
			lines = append(lines, o.ContentPath+"\x00"+o.Tree+"\n")
		}
	}
	sort.Strings(lines)
	h := sha256.New()
	for _, l := range lines {
		io.WriteString(h, l)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// linksWait bounds the wait for a build's report when its link figures
// arrive: this stage handles site.rendered before the links.verified that
// follows it, so the report is normally there already.
const linksWait = 5 * time.Second

func (s *stage) handle(ctx context.Context, ev events.Event) ([]events.Event, error) {
	switch in := ev.(type) {
	case *events.SiteRendered:
		return s.finish(ctx, in)
	case *events.LinksVerified:
		return []events.Event{s.attachLinks(ctx, in)}, nil
	default:
		return nil, pipeline.Permanentf("finish: unexpected %T", ev)
	}
}

// attachLinks adds link figures to the report this stage wrote — it is
// the report's one writer; verifylinks only announces the figures — and
// says on links.reported whether they are there. The figures also travel
// on links.verified itself, so a report that cannot take them (a newer
// build's report replaced it) only costs a warning.
func (s *stage) attachLinks(ctx context.Context, in *events.LinksVerified) *events.LinksReported {
	out := &events.LinksReported{Header: events.Header{ID: "links.reported:" + in.BuildID, BuildID: in.BuildID}}
	err := addLinks(ctx, s.cfg.Output.Directory, in.BuildID, in.LinkVerification, linksWait)
	switch {
	case err == nil:
		out.Attached = true
	case errors.Is(err, ErrSuperseded):
		s.log.Debug().Str("build_id", in.BuildID).Msg("link figures of a build whose report was replaced")
		out.Error = err.Error()
	default:
		s.log.Warn().Str("build_id", in.BuildID).Err(err).Msg("link figures not added to the build report")
		out.Error = err.Error()
	}
	return out
}

// finish closes a rendered build: report, saved state, build.finished.
func (s *stage) finish(ctx context.Context, in *events.SiteRendered) ([]events.Event, error) {
	start := time.Now()
	st, err := s.builds.Get(ctx, in.BuildID)
	if err != nil {
		return nil, err
	}
	lists, err := s.lists(ctx, in)
	if err != nil {
		return nil, err
	}
	rep := s.assemble(st, in, lists)
	rep.StageDurationsMS[Name] = time.Since(start).Milliseconds()
	rep.FinishedAt = time.Now().UTC()
	rep.DurationMS = rep.FinishedAt.Sub(rep.StartedAt).Milliseconds()
	if err := WriteReport(s.cfg.Output.Directory, &rep); err != nil {
		return nil, err
	}
	if in.OK && s.states != nil {
		// Only the build whose site is live saves: an older build that
		// finishes late must not take the state back.
		published, err := s.states.Published(ctx)
		if err != nil {
			return nil, err
		}
		if published == "" || published == in.BuildID {
			if err := s.states.Save(ctx, savedState(st, in, lists, &rep)); err != nil {
				return nil, err
			}
		}
	}
	s.log.Info().Str("build_id", in.BuildID).Str("outcome", rep.Outcome).
		Int("cloned", rep.ClonedRepositories).Int("failed", rep.FailedRepositories).
		Int("pages", rep.RenderedPages).Str("doc_files_hash", rep.DocFilesHash).Msg("build finished")
	done := &events.BuildFinished{
		Header: events.Header{ID: "build.finished:" + in.BuildID, BuildID: in.BuildID},
		Report: rep.Bounded(),
	}
	if done.Report.IssuesOmitted > 0 || done.Report.RepositoriesOmitted > 0 {
		// The whole report travels by reference, for the daemon's status
		// of every repository.
		if done.ReportRef, err = spill.Put(ctx, s.store, s.scratch, rep); err != nil {
			return nil, fmt.Errorf("store the report of build %s: %w", in.BuildID, err)
		}
	}
	return []events.Event{done}, nil
}

// buildLists are what a rendered build's message refers to, read whole:
// the units' outcomes (acquisition and render) and the issues, each
// repository's (by unit key) and the site's own.
type buildLists struct {
	outcomes []events.RepoOutcome
	units    []events.UnitOutcome
	issues   map[string][]report.Issue
	site     []report.Issue
}

// lists reads the build's outcome and issue lists from the store: they
// travel by reference when they grow with the site.
func (s *stage) lists(ctx context.Context, in *events.SiteRendered) (buildLists, error) {
	all := buildLists{issues: map[string][]report.Issue{}}
	var err error
	if all.outcomes, err = spill.LoadList[events.RepoOutcome](ctx, s.store, s.scratch, in.OutcomesRef, in.Outcomes); err != nil {
		return all, renders.MissingArtifact("outcomes of build "+in.BuildID, s.store, err)
	}
	if in.UnitsRef != "" {
		if all.units, err = spill.LoadList[events.UnitOutcome](ctx, s.store, s.scratch, in.UnitsRef, in.Units); err != nil {
			return all, renders.MissingArtifact("units of build "+in.BuildID, s.store, err)
		}
	}
	for _, o := range all.outcomes {
		list, err := spill.LoadIssues(ctx, s.store, s.scratch, o.IssueList)
		if err != nil {
			return all, renders.MissingArtifact("issues of "+o.Key(), s.store, err)
		}
		all.issues[o.Key()] = list
	}
	list, err := spill.LoadIssues(ctx, s.store, s.scratch, in.IssueList)
	if err != nil {
		return all, renders.MissingArtifact("issues of the site", s.store, err)
	}
	all.site = list
	return all, nil
}

func (s *stage) assemble(st *buildstate.BuildState, in *events.SiteRendered, lists buildLists) report.Report {
	rep := report.Report{
		SchemaVersion:      report.SchemaVersion,
		BuildID:            in.BuildID,
		Reason:             st.Reason,
		StartedAt:          st.StartedAt,
		StageDurationsMS:   map[string]int64{},
		StageDurationsNote: report.StageDurationsNoteText,
		RenderedPages:      in.Pages,
		StaticRendered:     in.OK,
		DocFilesHash:       DocFilesHash(lists.outcomes),
		SiteHash:           in.Site,
		Repositories:       []report.Repository{},
		Issues:             []report.Issue{},
	}
	for k, v := range st.Timings {
		rep.StageDurationsMS[k] += v
	}
	if len(st.Redeliveries) > 0 {
		rep.Redeliveries = st.Redeliveries
	}
	urls := map[string]string{}
	paths := map[string][]string{}
	for _, r := range s.cfg.AllRepositories() {
		urls[r.Name] = r.RedactedURL()
		paths[r.Name] = r.DocPaths()
	}
	renders := map[string]events.UnitOutcome{}
	if len(lists.units) > 0 {
		rep.Units = &report.UnitCounts{}
	}
	for _, u := range lists.units {
		renders[u.Key] = u
		rep.StageDurationsMS["render"] += u.DurationMS // summed over the units
		switch u.Outcome {
		case events.UnitOutcomeRendered:
			rep.Units.Rendered++
		case events.UnitOutcomeReused:
			rep.Units.Reused++
		case events.UnitOutcomeFailed:
			rep.Units.Failed++
			if u.Stale {
				rep.Units.Stale++
			}
		}
	}
	for _, o := range lists.outcomes {
		switch {
		case o.Failed:
			rep.FailedRepositories++
		case o.Reused:
			rep.ReusedRepositories++
		default:
			rep.ClonedRepositories++
		}
		entry := o.ReportEntry(urls[o.Repository])
		if u, ok := renders[o.Key()]; ok {
			entry.Render = &report.UnitRender{Outcome: u.Outcome, Stale: u.Stale, Pages: u.Pages,
				DurationMS: u.DurationMS, Address: u.Address, Error: u.Error}
		}
		rep.Repositories = append(rep.Repositories, entry)
		rep.Issues = append(rep.Issues, lists.issues[o.Key()]...)
		for k, v := range o.Timings {
			rep.StageDurationsMS[k] += v
		}
	}
	report.SortRepositories(rep.Repositories)
	rep.Versions = report.VersionsOf(rep.Repositories)
	rep.Issues = append(rep.Issues, lists.site...)
	markEmptyRepositories(&rep, paths)
	forges, forgeIssues := discovery.ReportSection(s.cfg)
	rep.Forges, rep.Issues = forges, append(rep.Issues, forgeIssues...)
	for k, v := range in.Timings {
		rep.StageDurationsMS[k] += v
	}
	if s.cfg.Build.BrokenLinks == config.BrokenLinksFail {
		rep.FailOnBrokenLinks()
	}
	rep.CountIDErrors()
	rep.DecideOutcome()
	rep.CountIssues()
	rep.CountForReaders()
	return rep
}

// WriteReport writes the report atomically (temporary file, then rename),
// so a reader never sees half a report.
func WriteReport(outputDir string, rep *report.Report) error {
	if err := os.MkdirAll(outputDir, 0o755); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(outputDir, ".build-report-*.json")
	if err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("write report: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(outputDir, ReportFile))
}

// savedState is what the next daemon build compares itself with: the
// successful repositories (or versions, by unit key) with their commits
// and trees, the configuration
// and builder that made the site, and the site's own hash.
func savedState(st *buildstate.BuildState, in *events.SiteRendered, lists buildLists, rep *report.Report) buildstate.SiteState {
	saved := buildstate.SiteState{
		BuildID:         rep.BuildID,
		FinishedAt:      rep.FinishedAt,
		BuilderVersion:  version.String(),
		ConfigHash:      st.ConfigHash,
		AcquisitionHash: st.AcquisitionHash,
		DocFilesHash:    rep.DocFilesHash,
		SiteHash:        in.Site,
		Pages:           in.Pages,
		Repositories:    map[string]events.RepoOutcome{},
		URLs:            in.URLs,
	}
	for _, o := range lists.outcomes {
		if !o.Failed {
			o.IssueList = events.IssueList{} // the report has them; the state locates trees
			saved.Repositories[o.Key()] = o
		}
	}
	for _, u := range lists.units {
		if u.Output != "" {
			// The report has the issues; the state only locates outputs,
			// and a list stored aside, which the unit's record names.
			u.Issues = nil
			if saved.Renders == nil {
				saved.Renders = map[string]events.UnitOutcome{}
			}
			saved.Renders[u.Key] = u
		}
	}
	return saved
}
