// Package direct runs one build from start to finish in this process — the
// `docweave build` command. It starts (or connects to) the broker by the
// broker rule, runs every stage on it, publishes the build request and
// waits for the build's report, reporting progress on the way.
package direct

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/discovery"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/natsbroker"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/stages"
	"github.com/docweave/docweave/workspace"
)

// Progress is a snapshot of a running build for a person watching it.
type Progress struct {
	BuildID string
	// Repositories is the number of units in the build: repositories, or
	// with versioning the versions discover chose (known once its clone
	// jobs are out; until then the configured repositories).
	Repositories int
	Acquired     int // units with an outcome (cloned and pruned, or failed)
	Failed       int
	Pages        int // set once the site is rendered
	Rendered     bool
	// VerifyingLinks is true from the render until the link figures
	// arrive, in a build run with Options.VerifyLinks.
	VerifyingLinks bool
	Elapsed        time.Duration
}

// Options tune a direct build.
type Options struct {
	// Stages to run in this process; empty means every registered stage.
	Stages []string
	// OnProgress is called after every pipeline step of the build.
	OnProgress func(Progress)
	// VerifyLinks runs link verification on the rendered site (`docweave
	// build --verify-links`); the build then waits for it and its report
	// carries the links section. Without it the verifylinks stage is not
	// even started.
	VerifyLinks bool
	Log         zerolog.Logger
}

// Build runs one build and returns its report. An error means there is no
// report at all (the broker failed, a stage gave up on a message); a build
// whose repositories or render failed still returns a report saying so.
func Build(ctx context.Context, cfg *config.Config, opts Options) (*report.Report, error) {
	layout := workspace.For(cfg)
	release, swept, err := layout.Claim()
	if err != nil {
		return nil, err
	}
	defer release()
	if swept > 0 {
		opts.Log.Info().Int("entries_removed", swept).Msg("workspace: removed what an interrupted build left")
	}
	bopts, err := natsbroker.OptionsFor(cfg, natsbroker.RoleDirect, "docweave-build")
	if err != nil {
		return nil, err
	}
	if bopts.URL == "" {
		dir, err := os.MkdirTemp(layout.Root, "nats-direct-")
		if err != nil {
			return nil, fmt.Errorf("broker store: %w", err)
		}
		defer os.RemoveAll(dir)
		bopts.StoreDir = dir
	}
	broker, err := natsbroker.Open(ctx, bopts)
	if err != nil {
		return nil, err
	}
	defer broker.Close()
	if err := natsbroker.Provision(ctx, broker.JS, cfg.Build.StreamReplicas); err != nil {
		return nil, err
	}
	builds, err := buildstate.OpenFanIns(ctx, broker.JS)
	if err != nil {
		return nil, err
	}
	states, err := buildstate.OpenStates(ctx, broker.JS)
	if err != nil {
		return nil, err
	}
	store, err := pipeline.OpenArtifactStore(ctx, cfg, broker)
	if err != nil {
		return nil, err
	}
	if len(cfg.Forges) > 0 {
		// The forges are scanned first; a forge that cannot be listed
		// keeps the repositories of the last scan stored in the workspace.
		store := discovery.FileStore{Path: filepath.Join(layout.Root, discovery.FileName)}
		if _, err := discovery.Discover(ctx, &discovery.Scanner{Log: opts.Log}, cfg, store); err != nil {
			opts.Log.Warn().Err(err).Msg("discovered repositories not saved; the next build scans every repository again")
		}
	}
	names := opts.Stages
	if len(names) == 0 {
		for _, n := range pipeline.Registered() {
			if n != stages.VerifyLinks || opts.VerifyLinks {
				names = append(names, n)
			}
		}
	}
	stageSet, err := pipeline.NewStages(names, pipeline.Deps{Config: cfg, Store: store, FanIns: builds, States: states, Workspace: layout.Root, Log: opts.Log})
	if err != nil {
		return nil, err
	}

	buildID := events.NewBuildID()
	w, err := watch(broker, buildID)
	if err != nil {
		return nil, err
	}
	defer w.close()

	runCtx, stopRunner := context.WithCancel(ctx)
	runnerDone := make(chan error, 1)
	runner := pipeline.NewRunner(broker.JS, opts.Log, stageSet)
	runner.FanIns = builds
	go func() { runnerDone <- runner.Run(runCtx) }()
	defer func() { stopRunner(); <-runnerDone }()

	req := &events.BuildRequested{
		Header:      events.Header{ID: "build.requested:" + buildID, BuildID: buildID},
		Reason:      "cli",
		Direct:      true,
		VerifyLinks: opts.VerifyLinks,
		ConfigHash:  cfg.Hash(),
	}
	if err := pipeline.Publish(ctx, broker.JS, req); err != nil {
		return nil, err
	}
	total := len(cfg.AllRepositories())
	opts.Log.Info().Str("build_id", buildID).Int("repositories", total).Msg("build requested")
	return w.wait(ctx, total, opts.VerifyLinks, opts.OnProgress)
}

// watcher follows one build's events on the broker.
type watcher struct {
	buildID string
	sub     *nats.Subscription
	ch      chan *nats.Msg
	done    chan struct{}
	started time.Time
}

func watch(b *natsbroker.Broker, buildID string) (*watcher, error) {
	w := &watcher{buildID: buildID, ch: make(chan *nats.Msg, 256), done: make(chan struct{}), started: time.Now()}
	sub, err := b.Subscribe(events.AllSubjects, func(m *nats.Msg) {
		select {
		case w.ch <- m:
		case <-w.done:
		}
	})
	if err != nil {
		return nil, fmt.Errorf("watch build %s: %w", buildID, err)
	}
	w.sub = sub
	return w, nil
}

func (w *watcher) close() {
	_ = w.sub.Unsubscribe()
	close(w.done)
}

// wait follows the build until its report is in — and, when links are
// verified, until their figures are too (they may come before or after the
// report) and fingerprint has put them into the report on disk
// (links.reported). A failed verification does not fail the build: the report says
// so in its links section.
func (w *watcher) wait(ctx context.Context, total int, verifyLinks bool, onProgress func(Progress)) (*report.Report, error) {
	p := Progress{BuildID: w.buildID, Repositories: total}
	units := map[string]bool{}
	countUnit := func(key string) {
		units[key] = true
		p.Repositories = max(total, len(units))
	}
	var rep *report.Report
	var links *report.LinkVerification
	linksDue := false
	// reported: fingerprint has put the figures into the report on disk
	// (or said why not), so the file is whole when the build returns.
	reported := false
	finish := func() (*report.Report, bool) {
		if rep == nil || (linksDue && (links == nil || !reported)) {
			return nil, false
		}
		if links != nil {
			rep.Links = links
		}
		return rep, true
	}
	tell := func() {
		if onProgress != nil {
			p.Elapsed = time.Since(w.started)
			onProgress(p)
		}
	}
	tell()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("build %s: %w", w.buildID, ctx.Err())
		case <-tick.C:
			tell()
		case m := <-w.ch:
			if m.Header.Get("Docweave-Build-Id") != w.buildID {
				continue
			}
			ev, err := events.Decode(m.Subject, m.Data)
			if err != nil {
				continue
			}
			switch e := ev.(type) {
			case *events.RepoClone:
				countUnit(e.Key())
			case *events.RepoPruned:
				countUnit(e.Outcome.Key())
				p.Acquired++
				if e.Outcome.Failed {
					p.Failed++
				}
			case *events.SiteRendered:
				p.Rendered, p.Pages = e.OK, e.Pages
				linksDue = verifyLinks && e.OK
				p.VerifyingLinks = linksDue && links == nil
			case *events.LinksVerified:
				links = &e.LinkVerification
				p.VerifyingLinks = false
			case *events.LinksReported:
				reported = true
			case *events.BuildFinished:
				r := e.Report
				rep = &r
			case *events.StageFailed:
				if e.Stage == stages.VerifyLinks {
					links = &report.LinkVerification{Status: report.LinksFailed, Error: e.Reason}
					p.VerifyingLinks = false
					reported = true // no figures will come for the report
					break
				}
				return nil, fmt.Errorf("build %s: stage %s gave up on %s: %s", w.buildID, e.Stage, e.OnSubject, e.Reason)
			}
			if done, ok := finish(); ok {
				tell()
				return done, nil
			}
			tell()
		}
	}
}
