// Package render is the stage that makes the site: once every repository of
// a build has an outcome, it lays the documentation trees out as a Hugo
// project under output.directory, renders it with the embedded Hugo into a
// staging directory and swaps that in as <output.directory>/public. A
// failed render, or a build in which no repository succeeded, leaves the
// last good site in place. Problems of single pages (unknown shortcodes,
// unusable front matter, a page that cannot render) do not fail the render:
// they become warnings in the build report naming the repository and file.
package render

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/internal/atomicdir"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/site"
)

// Name is the stage name.
const Name = "render"

func init() { pipeline.Register(Name, New) }

// New builds the stage. One render runs at a time per process.
func New(d pipeline.Deps) (pipeline.Stage, error) {
	s := &stage{cfg: d.Config, store: d.Store, log: d.Log}
	return pipeline.Stage{
		Name: Name, Subjects: []string{events.SubjectContentReady}, Handle: s.handle,
		Concurrency: 1, MaxDeliver: 3,
	}, nil
}

type stage struct {
	cfg   *config.Config
	store artifact.Store
	log   zerolog.Logger
}

func (s *stage) handle(ctx context.Context, ev events.Event) ([]events.Event, error) {
	start := time.Now()
	in, ok := ev.(*events.ContentReady)
	if !ok {
		return nil, pipeline.Permanentf("render: unexpected %T", ev)
	}
	out := &events.SiteRendered{
		Header:   events.Header{ID: "site.rendered:" + in.BuildID, BuildID: in.BuildID},
		Outcomes: in.Outcomes,
		Timings:  events.Timings{},
	}
	fail := func(code, msg string) []events.Event {
		out.Issues = append(out.Issues, report.Issue{Code: code, Severity: report.SeverityError, Stage: Name, Message: msg})
		out.Timings[Name] = time.Since(start).Milliseconds()
		s.log.Error().Str("build_id", in.BuildID).Str("code", code).Msg(msg)
		return []events.Event{out}
	}
	repos, files := s.siteRepositories(in.Outcomes)
	if len(repos) == 0 {
		return fail(report.CodeRenderFailed, "no repository produced documentation; the previous site (if any) is kept"), nil
	}
	project, err := filepath.Abs(s.cfg.Output.Directory)
	if err != nil {
		return nil, pipeline.Permanent(err)
	}
	if err := s.layout(ctx, project, in.Outcomes); err != nil {
		if !errors.Is(err, artifact.ErrNotFound) && artifact.IsShared(s.store) {
			// The broker may be electing a new leader (a node was lost):
			// fetch the trees again shortly rather than fail the build.
			return nil, pipeline.Transient(err, 2*time.Second)
		}
		return fail(report.CodeRenderFailed, err.Error()), nil
	}
	staging := filepath.Join(project, ".public-"+in.BuildID)
	_ = os.RemoveAll(staging)
	res, err := site.Render(ctx, site.Options{
		ProjectDir:   project,
		PublishDir:   staging,
		Generator:    generatorFor(s.cfg),
		Repositories: repos,
		Logger:       s.log.With().Str("build_id", in.BuildID).Logger(),
	})
	if err != nil {
		_ = os.RemoveAll(staging)
		return fail(report.CodeRenderFailed, fmt.Sprintf("render failed; the previous site is kept: %v", err)), nil
	}
	public := filepath.Join(project, "public")
	if err := atomicdir.Swap(staging, public); err != nil {
		_ = os.RemoveAll(staging)
		return fail(report.CodeRenderFailed, err.Error()), nil
	}
	ref, published, err := artifact.HashDir(public)
	if err != nil {
		return nil, err
	}
	out.OK, out.Site, out.Pages, out.Files = true, string(ref), res.Pages, published
	out.Issues = append(out.Issues, pageIssues(res.Issues, files)...)
	out.Timings[Name] = time.Since(start).Milliseconds()
	s.log.Info().Str("build_id", in.BuildID).Int("pages", res.Pages).Int("files", published).
		Int("page_issues", len(res.Issues)).Msg("site rendered")
	return []events.Event{out}, nil
}

// repository returns the configuration of the named repository, or a zero
// one (no URL: no edit links) when it is not configured, as for a build
// of an older configuration.
func (s *stage) repository(name string) config.Repository {
	for _, r := range s.cfg.Repositories {
		if r.Name == name {
			return r
		}
	}
	return config.Repository{}
}

// layout writes the Hugo project's content: the output directory is
// prepared first (prepareOutputDirectory: with output.clean, docweave's own
// entries except the published site are removed, and nothing else). content/ is
// always laid out afresh — a repository, branch or tag that left the
// configuration or the remote leaves the site — and each successful
// unit's tree is materialized at content/<content path>.
func (s *stage) layout(ctx context.Context, project string, outcomes []events.RepoOutcome) error {
	if err := prepareOutputDirectory(s.cfg, project); err != nil {
		return err
	}
	content := filepath.Join(project, "content")
	if err := os.RemoveAll(content); err != nil {
		return fmt.Errorf("clear content: %w", err)
	}
	for _, o := range outcomes {
		if o.Failed || o.Tree == "" {
			continue
		}
		dst := filepath.Join(content, filepath.FromSlash(o.ContentPath))
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return err
		}
		if err := s.store.Materialize(ctx, artifact.Ref(o.Tree), dst); err != nil {
			return fmt.Errorf("lay out %s: %w", o.Key(), err)
		}
	}
	return nil
}

// LiveReloadParam is the theme parameter that carries the live-reload port:
// set in daemon mode, so pages reload themselves after each publish.
const LiveReloadParam = site.LiveReloadPortParam

// generatorFor returns the site settings for Hugo: the configured ones, plus
// the live-reload port in daemon mode.
func generatorFor(cfg *config.Config) config.Generator {
	g := cfg.Generator
	if cfg.Mode != config.ModeDaemon || !cfg.Daemon.HTTP.LiveReloadEnabled || cfg.Daemon.HTTP.LiveReloadPort == 0 {
		return g
	}
	params := make(map[string]any, len(g.Params)+1)
	for k, v := range g.Params {
		params[k] = v
	}
	params[LiveReloadParam] = cfg.Daemon.HTTP.LiveReloadPort
	g.Params = params
	return g
}
