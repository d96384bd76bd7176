package preview

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/docstree"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/gitx"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/renders"
	"github.com/docweave/docweave/site"
	"github.com/docweave/docweave/stages/assemble"
	"github.com/docweave/docweave/stages/clone"
)

// ErrNoLiveSite is returned when there is no published site to preview a
// change against yet.
var ErrNoLiveSite = errors.New("the live site has no saved state yet; a preview needs a published site")

// Builder builds one preview: it acquires the repository at the ref,
// renders its unit, and assembles it with the live site's other units.
type Builder struct {
	// Config is the daemon's configuration: the repositories and the
	// site settings the live site was rendered with.
	Config *config.Config
	// Store holds the live site's unit outputs and facts; States its
	// saved state, which names them.
	Store  artifact.Store
	States *buildstate.States
	// Work is a directory for the preview's checkout, render and
	// assembly work; each build uses Work/<id>, removed at the end.
	Work string
	// Log receives one line per preview built.
	Log zerolog.Logger
}

// built is what one build of a preview found.
type built struct {
	Commit  string
	Unit    string // the unit key rendered anew
	Pages   int
	Files   int
	Changes Changes
	Broken  []BrokenLink
	// Timings in milliseconds: acquire, render, assemble, compare, total.
	Timings map[string]int64
}

// build makes the preview of req in publish (which must not exist).
func (b *Builder) build(ctx context.Context, id string, req Request, publish string) (built, error) {
	start := time.Now()
	out := built{Timings: map[string]int64{}}
	if err := os.MkdirAll(b.Work, 0o755); err != nil {
		return out, fmt.Errorf("preview work directory: %w", err)
	}
	st, err := b.States.Load(ctx)
	if err != nil {
		return out, fmt.Errorf("read the live site's state: %w", err)
	}
	if st == nil {
		return out, ErrNoLiveSite
	}
	repo, ok := b.Config.Repository(req.Repository)
	if !ok {
		return out, fmt.Errorf("repository %q is not in the configuration", req.Repository)
	}
	key, live, err := targetUnit(st, req)
	if err != nil {
		return out, err
	}
	out.Unit = key
	work := filepath.Join(b.Work, id)
	if err := os.RemoveAll(work); err != nil {
		return out, fmt.Errorf("clear the preview's work directory: %w", err)
	}
	defer os.RemoveAll(work)
	log := b.Log.With().Str("preview", id).Str("repository", req.Repository).Str("ref", req.Ref).Logger()

	// The repository at the ref, as the clone stage would take it.
	if req.Untrusted {
		f := false
		repo.Trusted = &f
	}
	t := time.Now()
	changed, err := b.acquire(ctx, repo, req, live, filepath.Join(work, "checkout"))
	if err != nil {
		return out, err
	}
	out.Commit = changed.Commit
	out.Timings["acquire"] = time.Since(t).Milliseconds()

	// The spec is the live site's, with the repository at its new ref.
	outcomes := liveOutcomes(b.Config, st, key, changed)
	spec := assemble.SiteSpec(b.Config, outcomes)
	if req.Untrusted {
		for i := range spec.Repositories {
			if spec.Repositories[i].Name == req.Repository {
				spec.Repositories[i].Untrusted = true
			}
		}
	}
	t = time.Now()
	unit, unitDir, err := b.render(ctx, work, changed, spec, log)
	if err != nil {
		return out, err
	}
	out.Pages, out.Files = unit.Pages, unit.Files
	out.Timings["render"] = time.Since(t).Milliseconds()

	// Every other unit is the live site's.
	t = time.Now()
	units, liveFacts, err := b.liveUnits(ctx, st, key)
	if err != nil {
		return out, err
	}
	units = append(units, site.AssembledUnit{Path: changed.ContentPath, ID: "", Facts: unit.Facts, Search: unit.Search,
		Place: func(ctx context.Context, dir string) error { return site.LinkTree(unitDir, dir) }})
	remembered, err := b.liveURLs(ctx, st)
	if err != nil {
		return out, err
	}
	res, err := site.Assemble(ctx, site.AssembleOptions{
		WorkDir: filepath.Join(work, "assembly"), PublishDir: publish,
		Generator: spec.Generator, Repositories: spec.Repositories, Units: units,
		Remembered: remembered, Logger: log,
	})
	if err != nil {
		return out, fmt.Errorf("assemble the preview: %w", err)
	}
	out.Files = res.Files
	out.Timings["assemble"] = time.Since(t).Milliseconds()

	t = time.Now()
	out.Changes = compareURLs(remembered, res.URLs)
	cmp := comparison{cfg: b.Config, store: b.Store, scratch: work, spec: spec, unitKey: key, live: st.Renders[key],
		contentPath: changed.ContentPath, repository: req.Repository}
	if out.Broken, err = cmp.brokenLinks(ctx, units, liveFacts, unit); err != nil {
		return out, err
	}
	out.Timings["compare"] = time.Since(t).Milliseconds()
	out.Timings["total"] = time.Since(start).Milliseconds()
	log.Info().Str("commit", out.Commit).Int("pages", out.Pages).Int("files", out.Files).
		Int("added", len(out.Changes.Added)).Int("changed", len(out.Changes.Changed)).Int("removed", len(out.Changes.Removed)).
		Int("links_broken", len(out.Broken)).Int64("duration_ms", out.Timings["total"]).Msg("preview built")
	return out, nil
}

// targetUnit is the unit of the live site the preview replaces: the
// repository's one unit, or with versions the version of the ref, else
// the default version.
func targetUnit(st *buildstate.SiteState, req Request) (string, events.RepoOutcome, error) {
	var found, def *events.RepoOutcome
	keys := make([]string, 0, len(st.Repositories))
	for k := range st.Repositories {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		o := st.Repositories[k]
		if o.Repository != req.Repository || o.Failed {
			continue
		}
		switch {
		case o.Version == nil:
			found = &o
		case o.Version.Name == req.Ref || o.Version.Ref == req.Ref:
			found = &o
		case o.Version.Default && def == nil:
			def = &o
		}
	}
	if found == nil {
		found = def
	}
	if found == nil {
		return "", events.RepoOutcome{}, fmt.Errorf("repository %q is not on the live site; previews change a repository the site shows", req.Repository)
	}
	return found.Key(), *found, nil
}

// acquire clones the repository at the ref (from req.CloneURL when set: a
// fork, without the repository's credentials) and stores its
// documentation as a tree, like the clone stage; it returns the live
// unit's outcome with the new commit and tree.
func (b *Builder) acquire(ctx context.Context, repo config.Repository, req Request, live events.RepoOutcome, dir string) (events.RepoOutcome, error) {
	url, auth := repo.URL, repo.Auth
	if req.CloneURL != "" && req.CloneURL != repo.URL {
		url, auth = req.CloneURL, config.Auth{Type: config.AuthNone}
	}
	roots, policy := repo.DocPaths(), docstree.PolicyFor(b.Config, repo)
	res, err := gitx.Acquire(ctx, gitx.Request{
		URL: url, Branch: req.Ref, Depth: b.Config.Build.ShallowDepth, Auth: auth, Dir: dir, Strategy: "fresh",
		Sparse:       clone.SparseFor(b.Config.Build, repo),
		Referenced:   func(dir string) []string { return docstree.Referenced(dir, roots, policy) },
		MaxFileBytes: int64(b.Config.Build.Limits.MaxFileBytes),
	}, gitx.PolicyFor(b.Config.Build))
	if err != nil {
		return events.RepoOutcome{}, fmt.Errorf("acquire %s at %s: %w", req.Repository, req.Ref, err)
	}
	if req.Commit != "" && res.Commit != req.Commit {
		return events.RepoOutcome{}, fmt.Errorf("%s at %s is commit %s, not the requested %s (pushed again since?)", req.Repository, req.Ref, res.Commit, req.Commit)
	}
	files, _, err := docstree.CollectDocsWith(dir, roots, res.Referenced, policy)
	if err != nil {
		return events.RepoOutcome{}, fmt.Errorf("collect the documentation of %s: %w", req.Repository, err)
	}
	ref, err := b.Store.PutTree(ctx, files)
	if err != nil {
		return events.RepoOutcome{}, fmt.Errorf("store the documentation of %s: %w", req.Repository, err)
	}
	out := live
	out.Branch, out.Commit, out.CommitTime, out.Tree, out.DocFiles, out.Reused = req.Ref, res.Commit, res.CommitTime, string(ref), len(files), false
	out.IssueList = events.IssueList{}
	return out, nil
}

// liveOutcomes are the live site's repository outcomes in configuration
// order (versions by rank), with the unit key replaced by changed.
func liveOutcomes(cfg *config.Config, st *buildstate.SiteState, key string, changed events.RepoOutcome) []events.RepoOutcome {
	order := map[string]int{}
	for i, r := range cfg.Repositories {
		order[r.Name] = i
	}
	rank := func(o events.RepoOutcome) (int, int) {
		i, ok := order[o.Repository]
		if !ok {
			i = len(order)
		}
		if o.Version == nil {
			return i, 0
		}
		return i, o.Version.Rank
	}
	var out []events.RepoOutcome
	for k, o := range st.Repositories {
		if k == key {
			o = changed
		}
		out = append(out, o)
	}
	slices.SortStableFunc(out, func(a, b events.RepoOutcome) int {
		ai, ar := rank(a)
		bi, br := rank(b)
		switch {
		case ai != bi:
			return ai - bi
		case a.Repository != b.Repository:
			if a.Repository < b.Repository {
				return -1
			}
			return 1
		}
		return ar - br
	})
	return out
}

// render renders the changed unit in work/unit.
func (b *Builder) render(ctx context.Context, work string, unit events.RepoOutcome, spec site.Spec, log zerolog.Logger) (site.UnitResult, string, error) {
	project := filepath.Join(work, "project")
	published := filepath.Join(work, "unit")
	dst := filepath.Join(project, "content", filepath.FromSlash(unit.ContentPath))
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return site.UnitResult{}, "", err
	}
	if err := b.Store.Materialize(ctx, artifact.Ref(unit.Tree), dst); err != nil {
		return site.UnitResult{}, "", fmt.Errorf("lay out the documentation of %s: %w", unit.Key(), err)
	}
	res, err := site.RenderUnit(ctx, site.UnitOptions{
		ProjectDir: project, PublishDir: published,
		Generator: spec.Generator, Repositories: spec.Repositories, Unit: unit.ContentPath,
		Logger: log,
	})
	if err != nil {
		return site.UnitResult{}, "", fmt.Errorf("render %s: %w", unit.Key(), err)
	}
	return res, published, nil
}

// liveUnits are the live site's rendered units but the one of key, from
// the artifact store, and the live facts of the unit of key (nil when it
// had none).
func (b *Builder) liveUnits(ctx context.Context, st *buildstate.SiteState, key string) ([]site.AssembledUnit, []byte, error) {
	var units []site.AssembledUnit
	var replaced []byte
	for k, u := range st.Renders {
		if u.Output == "" {
			continue
		}
		facts, search, err := renders.LoadFacts(ctx, b.Store, u.Facts, b.Work)
		if err != nil {
			return nil, nil, renders.MissingArtifact("facts of unit "+k, b.Store, err)
		}
		if k == key {
			replaced = facts
			continue
		}
		ref := artifact.Ref(u.Output)
		units = append(units, site.AssembledUnit{Path: u.ContentPath, ID: u.Output, Facts: facts, Search: search,
			Place: func(ctx context.Context, dir string) error { return b.Store.Materialize(ctx, ref, dir) }})
	}
	return units, replaced, nil
}

// liveURLs are the URLs the live site published (nil when not stored).
func (b *Builder) liveURLs(ctx context.Context, st *buildstate.SiteState) ([]events.PublishedURL, error) {
	if st.URLs == "" {
		return nil, nil
	}
	urls, err := renders.LoadURLs(ctx, b.Store, st.URLs, b.Work)
	if err != nil {
		return nil, fmt.Errorf("read the live site's URLs: %w", err)
	}
	return urls, nil
}
