// Package assembly makes one site of its rendered units: it renders the
// pages that span units (the home page, /docs/, forge directories, the
// root pages of versioned repositories, taxonomy and term pages, the
// not-found page) from the facts each unit's render emitted, places every
// unit's files beside them, fills in the version switchers, and writes the
// search index, the redirect map and the redirects of pages that moved.
// Into a publish directory that holds an earlier site it changes only what
// differs (PlacedSite). Package site's Assemble and Render are its
// callers; it never renders a unit.
//
// A site's path through it runs forward: Assemble (assemble.go) reads the
// units' facts, the pages that span units are rendered or taken again
// (pages.go, with the front page's recent changes from recent.go; a term
// page whose inputs are those of the one in place keeps its files,
// terms.go), the units are placed (placed.go, files.go) and their
// switchers filled (switchers.go), then the search index of books kept by
// the units' records (searchbooks.go), and last the URLs are claimed and
// redirected (moved.go, redirects.go). Its log line times each part
// (phases.go).
package assembly

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"time"

	"github.com/gohugoio/hugo/hugolib"
	"github.com/rs/zerolog"
	"github.com/spf13/afero"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/site/internal/hugobuild"
	"github.com/docweave/docweave/site/internal/model"
)

// Options says what makes up a site and where to publish it.
type Options struct {
	// WorkDir is the assembly's own Hugo project: its generated files are
	// replaced, its theme and caches kept for the next assembly.
	WorkDir string
	// PublishDir receives the whole site. It may hold an earlier site
	// that Placed describes: then only what differs is changed. Without
	// Placed it is emptied first.
	PublishDir string
	// Placed is what PublishDir holds, as the assembly that wrote it
	// returned it (Result.Placed); nil when unknown.
	Placed *PlacedSite
	// Generator and Repositories describe the site, as they did for
	// every unit's render.
	Generator    config.Generator
	Repositories []model.Repository
	// Units are the rendered units, in any order. A unit of Repositories
	// that is not here is not on the site.
	Units []RenderedUnit
	// Remembered are the URLs an earlier site published (its
	// Result.URLs, from the saved state): those whose page moved
	// are redirected to it (see moved.go).
	Remembered []events.PublishedURL
	Logger     zerolog.Logger
}

// RenderedUnit is one rendered unit, as the assembly takes it.
type RenderedUnit struct {
	// Path is the unit's content path (see site.UnitOptions.Unit).
	Path string
	// ID names the unit's published files: two units with one ID have the
	// same files (the pipeline uses its output's artifact reference). An
	// empty ID is never taken as placed already.
	ID string
	// Facts and Search are the unit's site.UnitResult.Facts and .Search.
	Facts  []byte
	Search []byte
	// Place writes the unit's published files (what site.RenderUnit wrote to
	// its PublishDir) below dir. They may be hard links into a store:
	// the assembly never writes into a placed file, it replaces it.
	Place func(ctx context.Context, dir string) error
}

// Result summarises an assembly.
type Result struct {
	// Files is the number of files of the published site.
	Files int
	// Patched is the number of the units' pages whose version switcher
	// was filled in (written anew rather than placed as they were).
	Patched int
	// Placed describes what PublishDir holds now, for the next assembly
	// into it, and every file's content hash.
	Placed *PlacedSite
	// PlacedUnits and Built say what this assembly had to do: units whose
	// files it placed (the others were in place), and whether it ran
	// Hugo for the pages that span units (false: the same pages were
	// in place, or kept from an earlier assembly).
	PlacedUnits int
	Built       bool
	// TermsReused is the number of term pages Hugo did not render again,
	// their inputs being those of the pages in place.
	TermsReused int
	// Redirects is the number of lines of the site's redirect map
	// (RedirectsFile), and Conflicts the URLs two repositories claimed
	// (the first in configuration order kept each).
	Redirects int
	Conflicts []URLConflict
	// Moved is the number of remembered URLs redirected to where their
	// page moved, and URLs what the next assembly is to remember: every
	// page's URL and the old URLs redirected.
	Moved int
	URLs  []events.PublishedURL
}

// Assemble makes a site of its rendered units: it renders the pages that
// span units — the home page, /docs/, forge directories, the root pages of
// versioned repositories, taxonomy and term pages and the not-found page —
// with the theme's style sheet and scripts, places every unit's files
// beside them, fills in the version switchers and writes the search index
// of all units.
//
// Term pages list pages of many units, which this Hugo build does not
// render: each such page is represented by a stand-in (a stub) at the
// same path, with the title, terms and sort keys the unit's facts give and
// Hugo's build option render: link, so it has the page's URL and is never
// written.
//
// themeFS is the theme (site/theme's, or a benchmark's minimal one); the
// caller has validated opts.Repositories (package site does).
func Assemble(ctx context.Context, opts Options, themeFS fs.FS) (Result, error) {
	start := time.Now()
	phases := newPhaseClock()
	facts := make(map[string]*model.UnitFacts, len(opts.Units))
	counts := make(map[string]int, len(opts.Units))
	for _, u := range opts.Units {
		if _, ok := model.UnitOf(opts.Repositories, u.Path); !ok {
			return Result{}, fmt.Errorf("site: assemble: unit %q is not a unit of Repositories", u.Path)
		}
		var f model.UnitFacts
		if err := json.Unmarshal(u.Facts, &f); err != nil {
			return Result{}, fmt.Errorf("site: assemble: facts of unit %s: %w", u.Path, err)
		}
		facts[u.Path] = &f
		counts[u.Path] = f.RegularPages
	}
	opts.Repositories = withSummaries(opts.Repositories, facts)
	log := opts.Logger.With().Str("component", "site").Logger()
	placed, err := preparePublishDir(opts.PublishDir, opts.WorkDir, opts.Placed)
	if err != nil {
		return Result{}, err
	}
	res := Result{}
	phases.lap("facts_ms")

	// The pages that span units: rendered by Hugo only when what they are
	// made of changed, else taken from the assembly that made them.
	urls := publishedURLs(opts.Repositories, facts, opts.Remembered)
	pages, err := newAssemblyPages(opts, themeFS, facts, counts, recentlyUpdated(urls, facts))
	if err != nil {
		return Result{}, err
	}
	phases.lap("key_ms")
	if placed.Assembly != pages.key {
		var reused map[string]PlacedTerm
		if res.Built, reused, err = pages.build(ctx, log, placed.reusableTerms(pages.terms)); err != nil {
			return Result{}, err
		}
		phases.lap("pages_ms")
		if err := placed.replaceAssembly(opts.PublishDir, pages, reused); err != nil {
			return Result{}, err
		}
		if pages.partial {
			if err := os.RemoveAll(pages.dir); err != nil {
				return Result{}, fmt.Errorf("site: assemble: %w", err)
			}
		}
		res.TermsReused = len(reused)
	}
	phases.lap("pages_placed_ms")

	// The units: a unit whose files are in place stays as it is.
	switchers := switcherDigests(opts.Repositories, facts)
	want := map[string]string{}
	for _, u := range opts.Units {
		want[u.Path] = u.ID
		if d, ok := switchers[u.Path]; ok && u.ID != "" {
			want[u.Path] = u.ID + " " + d
		}
	}
	if err := placed.removeUnitsNotIn(opts.PublishDir, want); err != nil {
		return Result{}, err
	}
	for _, u := range opts.Units {
		if p, ok := placed.Units[u.Path]; ok && p.ID == want[u.Path] && want[u.Path] != "" {
			continue
		}
		if err := u.Place(ctx, opts.PublishDir); err != nil {
			return Result{}, fmt.Errorf("site: assemble: place unit %s: %w", u.Path, err)
		}
		unit, _ := model.UnitOf(opts.Repositories, u.Path)
		patched, err := fillVersionSwitchers(opts.PublishDir, unit, facts)
		if err != nil {
			return Result{}, err
		}
		res.Patched += patched
		hashes, err := hashTree(opts.PublishDir, path.Join("docs", u.Path))
		if err != nil {
			return Result{}, err
		}
		placed.Units[u.Path] = PlacedUnit{ID: want[u.Path], Files: hashes}
		res.PlacedUnits++
	}
	phases.lap("units_ms")

	if search, _ := hugobuild.LookupParam(opts.Generator.Params, "disableSearch").(bool); !search {
		if err := placed.writeSearchIndex(opts.PublishDir, opts.WorkDir, opts.Repositories, opts.Units); err != nil {
			return Result{}, err
		}
	} else if err := placed.removeSearchIndex(opts.PublishDir); err != nil {
		return Result{}, err
	}
	phases.lap("search_ms")
	if err := placed.writeForMachines(opts.PublishDir, opts.Generator, opts.Repositories, facts, urls); err != nil {
		return Result{}, err
	}
	phases.lap("machines_ms")
	claims, files := placed.redirectFiles(opts.Repositories, facts, urls, opts.Remembered)
	xrefs, err := addXrefRedirects(files, claims.redirects, opts, hugobuild.SitePath(opts.Generator.BaseURL))
	if err != nil {
		return Result{}, err
	}
	if err := placed.writeRedirects(opts.PublishDir, files); err != nil {
		return Result{}, err
	}
	phases.lap("redirects_ms")
	res.Redirects, res.Conflicts, res.Moved = len(claims.redirects)+xrefs, claims.conflicts, len(claims.moved)
	res.URLs = urls
	for _, m := range claims.moved {
		old := m.page
		old.URL = m.From
		res.URLs = append(res.URLs, old)
	}
	res.Placed = placed
	res.Files = len(placed.FileHashes())
	log.Info().Int("units", len(opts.Units)).Int("units_placed", res.PlacedUnits).Bool("pages_built", res.Built).Int("terms_reused", res.TermsReused).
		Int("files", res.Files).Int("pages_patched", res.Patched).Int("redirects", res.Redirects).Int("xref_redirects", xrefs).Int("moved", res.Moved).Int("url_conflicts", len(res.Conflicts)).
		Dict("phases", phases.dict()).Int64("duration_ms", time.Since(start).Milliseconds()).Msg("site assembled")
	return res, nil
}

// runAssemblyBuild runs the assembly's one Hugo build, beside other
// builds of this process, or alone when Hugo counted errors it did not log
// itself (see hugobuild.Builds).
func runAssemblyBuild(ctx context.Context, l hugobuild.Layout, source afero.Fs, log zerolog.Logger) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("site: assemble: %w", err)
	}
	hugobuild.Builds.RLock()
	logged, err := assemblyBuild(l, source, log)
	hugobuild.Builds.RUnlock()
	if hugobuild.LoggedElsewhere(err, logged) {
		log.Info().Err(err).Msg("hugo counted errors the assembly did not log; building again alone")
		if err := os.RemoveAll(l.PublishDir); err != nil {
			return fmt.Errorf("site: assemble: %w", err)
		}
		hugobuild.Builds.Lock()
		_, err = assemblyBuild(l, source, log)
		hugobuild.Builds.Unlock()
	}
	if err != nil {
		return err
	}
	return ctx.Err()
}

// assemblyBuild is one Hugo build of the assembly; it returns how many
// errors its own loggers recorded.
func assemblyBuild(l hugobuild.Layout, source afero.Fs, log zerolog.Logger) (int, error) {
	errs := &hugobuild.Errors{}
	sites, err := hugobuild.NewSites(l, source, log, errs)
	if err != nil {
		return 0, fmt.Errorf("site: assemble: %w", err)
	}
	defer func() {
		if cerr := sites.Close(); cerr != nil {
			log.Warn().Err(cerr).Msg("closing hugo sites")
		}
	}()
	// The theme's own static files; the units' files are placed later.
	if _, err := hugobuild.CopyStatic(sites, l.PublishDir); err != nil {
		return 0, fmt.Errorf("site: assemble: %w", err)
	}
	if err := sites.Build(hugolib.BuildCfg{}); err != nil {
		if logged := errs.String(); logged != "" {
			return len(errs.All()), fmt.Errorf("site: assemble: hugo build: %w (logged: %s)", err, logged)
		}
		return 0, fmt.Errorf("site: assemble: hugo build: %w", err)
	}
	return 0, nil
}

// withSummaries returns repos with each empty description filled in from
// the summary of the unit a link to the repository opens (its default
// version's, when versioned). repos itself is left as it was.
func withSummaries(repos []model.Repository, facts map[string]*model.UnitFacts) []model.Repository {
	out := slices.Clone(repos)
	for i, r := range out {
		if r.Description != "" {
			continue
		}
		landing := r.ContentPath
		if d, ok := model.DefaultVersion(r); ok {
			landing = path.Join(r.ContentPath, d.Slug)
		}
		if f, ok := facts[landing]; ok {
			out[i].Description = f.Summary
		}
	}
	return out
}
