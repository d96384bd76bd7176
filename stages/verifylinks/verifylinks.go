// Package verifylinks is the stage that verifies a build's links: after
// every successful render it checks the links of the site —
// <output.directory>/public beside render, or a copy fetched from the
// shared artifact store when it runs in a process of its own —
// with package linkcheck, publishes one broken-link event per broken link
// and page on daemon.link_verification.subject, announces the figures on
// docweave.links.verified and adds them to the build report.
//
// It runs after every daemon build when daemon.link_verification.enabled
// is true, and for a direct build only when it was asked for with
// `docweave build --verify-links`. Its cache (the kv_bucket) and the
// stream of its events live on the broker; docs/links.md describes both.
package verifylinks

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/linkcheck"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/pipeline/natsbroker/roles"
	"github.com/docweave/docweave/renders"
	"github.com/docweave/docweave/spill"
	"github.com/docweave/docweave/stages"
)

// Name is the stage name.
const Name = stages.VerifyLinks

func init() { pipeline.Register(Name, New) }

// New builds the stage. One verification runs at a time per process: the
// checks inside it are already max_concurrent wide, and two at once would
// only break the per-host spacing.
func New(d pipeline.Deps) (pipeline.Stage, error) {
	_, st, err := newStage(d)
	return st, err
}

func newStage(d pipeline.Deps) (*stage, pipeline.Stage, error) {
	if d.Config == nil {
		return nil, pipeline.Stage{}, errors.New("verifylinks: no configuration")
	}
	lv := d.Config.Daemon.LinkVerification
	if err := linkcheck.CheckLinkSubject(lv.Subject); err != nil {
		return nil, pipeline.Stage{}, err
	}
	s := &stage{cfg: d.Config, store: d.Store, log: d.Log, scratch: d.Scratch(Name)}
	return s, pipeline.Stage{
		Name:        Name,
		Subjects:    []string{events.SubjectSiteRendered},
		Publishes:   []string{events.DefaultBrokenLinkSubject, events.SubjectLinksVerified},
		Handle:      pipeline.On(Name, s.handle),
		Setup:       s.setup,
		Concurrency: 1,
		AckWait:     time.Minute,
		MaxDeliver:  10,
	}, nil
}

type stage struct {
	cfg *config.Config
	// store is where a stage running apart from render fetches the site
	// (see locateSite); nil in tests of the local case.
	store artifact.Store
	// scratch is the workspace for the outcome list read from the store.
	scratch string
	log     zerolog.Logger
	// options, when set, replaces the options taken from the configuration
	// (tests use a loopback DNS resolver and a movable clock).
	options func(linkcheck.Options) linkcheck.Options

	mu    sync.Mutex
	cache *linkcheck.Cache
}

// setup provisions the broken-link stream and the cache bucket and opens
// the cache; the runner calls it before the first message.
func (s *stage) setup(ctx context.Context, js roles.JetStream) error {
	lv := s.cfg.Daemon.LinkVerification
	if err := linkcheck.ProvisionLinks(ctx, js, linkcheck.LinkResources{Subject: lv.Subject, Bucket: lv.KVBucket, Replicas: s.cfg.Build.StreamReplicas}); err != nil {
		return err
	}
	c, err := linkcheck.OpenCache(ctx, js, lv.KVBucket)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.cache = c
	s.mu.Unlock()
	return nil
}

func (s *stage) linkCache() *linkcheck.Cache {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cache
}

func (s *stage) handle(ctx context.Context, in *events.SiteRendered) ([]events.Event, error) {
	if err := s.ready(); err != nil {
		return nil, err
	}
	return s.verify(ctx, in)
}

// ready says whether Setup has opened the link cache (a transient error
// until it has).
func (s *stage) ready() error {
	if s.linkCache() == nil {
		return errors.New("verifylinks: the link cache is not open (stage not set up)")
	}
	return nil
}

// verify checks the links of a rendered site and returns its broken-link
// events followed by the links.verified announcement, in that order, so a
// subscriber that sees the announcement has been sent every event before
// it.
func (s *stage) verify(ctx context.Context, in *events.SiteRendered) ([]events.Event, error) {
	if !in.OK {
		return nil, nil // no new site: the last one was verified with its own build
	}
	verify, why := shouldVerify(in, s.cfg.Daemon.LinkVerification)
	log := s.log.With().Str("build_id", in.BuildID).Logger()
	if !verify {
		log.Debug().Str("why", why).Msg("links not verified")
		return nil, nil
	}
	lv := s.cfg.Daemon.LinkVerification
	opts := linkcheck.OptionsFromConfig(lv, log)
	if s.options != nil {
		opts = s.options(opts)
	}
	outcomes, err := spill.LoadList[events.RepoOutcome](ctx, s.store, s.scratch, in.OutcomesRef, in.Outcomes)
	if err != nil {
		return nil, renders.MissingArtifact("outcomes of build "+in.BuildID, s.store, err)
	}
	files, err := s.locateSite(ctx, in, outcomes)
	if err != nil {
		return nil, err
	}
	defer files.cleanup()
	site := s.siteOf(outcomes, files)
	res, err := linkcheck.NewVerifier(opts, s.linkCache()).Verify(ctx, site, in.BuildID)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, pipeline.Permanent(fmt.Errorf("verify links of build %s: the published site %s is gone (verifylinks in a process of its own needs build.artifact_store: broker): %w", in.BuildID, site.PublicDir, err))
	}
	if err != nil {
		return nil, fmt.Errorf("verify links of build %s: %w", in.BuildID, err)
	}
	out := brokenLinkEvents(in, res, lv.Subject)
	if len(res.Broken) > 0 {
		issues, err := spill.LoadIssues(ctx, s.store, s.scratch, in.IssueList)
		if err != nil {
			return nil, renders.MissingArtifact("issues of build "+in.BuildID, s.store, err)
		}
		markBrokenBy(out, issues)
	}
	out = append(out, &events.LinksVerified{
		Header:           events.Header{ID: "links.verified:" + in.BuildID, BuildID: in.BuildID},
		Site:             in.Site,
		LinkVerification: res.Figures,
	})
	f := res.Figures
	log.Info().Str("status", f.Status).Int("checked", f.Checked).Int("broken", f.Broken).Int("cached", f.Cached).
		Int("needs_auth", f.NeedsAuth).Int("rate_limited", f.RateLimited).Int("transient", f.Transient).Int("unverifiable", f.Unverifiable).
		Int("requests", f.Requests).Int("pages_parsed", f.PagesParsed).Int64("duration_ms", f.DurationMS).Msg("links verified")
	return out, nil
}

// siteOf describes the published site of a build for the verifier: the
// repositories that made it (with their documentation roots, for source
// file names) and the base URL that marks absolute links as internal.
func (s *stage) siteOf(outcomes []events.RepoOutcome, files siteFiles) linkcheck.Site {
	site := linkcheck.Site{
		PublicDir:  files.public,
		ContentDir: files.content,
		BaseURL:    s.cfg.Generator.BaseURL,
	}
	for _, o := range outcomes {
		if o.Failed {
			continue
		}
		repo := linkcheck.Repository{Name: o.Repository, Forge: o.Forge, ContentPath: o.ContentPath}
		if o.Version != nil {
			repo.Version = o.Version.Name
		}
		if r, ok := s.cfg.Repository(o.Repository); ok {
			repo.Roots = r.DocPaths()
		}
		site.Repositories = append(site.Repositories, repo)
	}
	return site
}
