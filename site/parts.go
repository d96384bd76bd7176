package site

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site/internal/assembly"
	"github.com/docweave/docweave/site/internal/hugobuild"
	"github.com/docweave/docweave/site/internal/model"
	"github.com/docweave/docweave/site/internal/searchindex"
	"github.com/docweave/docweave/site/theme"
)

// A site is rendered in parts. Each unit — a repository, or one version of
// a versioned repository — is rendered by a Hugo build of its own
// (RenderUnit), which sees the rest of the site only through the settings
// and the list of repositories and versions (hugobuild/params.go). The assembly
// (Assemble) then renders what spans units from the facts each unit
// emitted, and places the units' files beside it. The pipeline stores each
// unit's output by a content address (UnitAddress) and renders again only
// the units whose address changed; Render below does the same work in one
// process, for tests, benchmarks and tools.

// Spec is what every unit of a site is rendered with: the site settings
// and the site's repositories and versions. The pipeline stores it once per
// build for its render replicas (stages/assemble writes it, stages/render
// reads it).
type Spec struct {
	Generator    config.Generator `json:"generator"`
	Repositories []Repository     `json:"repositories"`
}

// Address is UnitAddress of the unit with content path unit and
// documentation tree tree, rendered with this spec.
func (s Spec) Address(unit, tree string) string {
	return UnitAddress(s.Generator, s.Repositories, unit, tree)
}

// IssueUnitRenderFailed: a whole unit could not be rendered and is not on
// the site; the other units are. Path is the unit's content path.
const IssueUnitRenderFailed = "RENDER_FAILED"

// Render renders the site of opts.ProjectDir — each repository's
// documentation under content/<ContentPath>/, each version's under
// content/<ContentPath>/<Slug>/ — into opts.PublishDir, in parts as the
// pipeline does: every unit on its own, then the assembly. A page that
// cannot render is left out and reported in Result.Issues; so is a unit
// that cannot render at all (IssueUnitRenderFailed). Render fails when no
// unit could be rendered, or the assembly fails.
func Render(ctx context.Context, opts Options) (Result, error) {
	return render(ctx, opts, theme.FS())
}

// render is Render with the theme as a parameter, so the benchmarks can
// measure Hugo alone with a minimal theme through the same code path.
func render(ctx context.Context, opts Options, themeFS fs.FS) (Result, error) {
	opts, err := validate(opts)
	if err != nil {
		return Result{}, err
	}
	repos := opts.Repositories
	if len(repos) == 0 {
		if repos, err = repositoriesOfContent(filepath.Join(opts.ProjectDir, "content")); err != nil {
			return Result{}, err
		}
	}
	work := filepath.Join(opts.ProjectDir, hugobuild.GeneratedDirName, "parts")
	if err := os.RemoveAll(work); err != nil {
		return Result{}, fmt.Errorf("render site %s: %w", opts.ProjectDir, err)
	}
	defer os.RemoveAll(work)
	var (
		res    Result
		units  []AssembledUnit
		failed []error
	)
	for i, u := range model.Units(repos) {
		src := filepath.Join(opts.ProjectDir, "content", filepath.FromSlash(u.Path))
		if st, err := os.Stat(src); err != nil || !st.IsDir() {
			continue // nothing of it was laid out
		}
		dir := filepath.Join(work, "units", fmt.Sprint(i))
		if err := assembly.LinkTree(src, filepath.Join(dir, "content", filepath.FromSlash(u.Path))); err != nil {
			return Result{}, fmt.Errorf("render site %s: unit %s: %w", opts.ProjectDir, u.Path, err)
		}
		published := filepath.Join(dir, "public")
		ur, err := renderUnit(ctx, UnitOptions{
			ProjectDir: dir, PublishDir: published, Generator: opts.Generator,
			Repositories: repos, Unit: u.Path, Logger: opts.Logger,
		}, themeFS)
		if err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil {
				return Result{}, fmt.Errorf("render site %s: %w", opts.ProjectDir, ctxErr)
			}
			failed = append(failed, err)
			res.Issues = append(res.Issues, Issue{Code: IssueUnitRenderFailed, Path: u.Path,
				Message: "the unit could not be rendered and is not on the site: " + shortenHugoMessage(err.Error(), hugobuild.NewLayout(dir, published))})
			opts.Logger.Error().Err(err).Str("unit", u.Path).Msg("unit not rendered; the rest of the site is")
			continue
		}
		res.Pages += ur.Pages
		res.Issues = append(res.Issues, ur.Issues...)
		units = append(units, AssembledUnit{Path: u.Path, Facts: ur.Facts, Search: ur.Search,
			Place: func(_ context.Context, to string) error { return assembly.LinkTree(published, to) }})
	}
	if len(units) == 0 && len(failed) > 0 {
		return Result{}, fmt.Errorf("render site %s: no unit could be rendered: %w", opts.ProjectDir, errors.Join(failed...))
	}
	ar, err := assemble(ctx, AssembleOptions{
		WorkDir: filepath.Join(work, "assembly"), PublishDir: opts.PublishDir,
		Generator: opts.Generator, Repositories: repos, Units: units, Logger: opts.Logger,
	}, themeFS)
	if err != nil {
		return Result{}, fmt.Errorf("render site %s: %w", opts.ProjectDir, err)
	}
	res.Files = ar.Files
	model.SortIssues(res.Issues)
	return res, nil
}

// RenderWhole renders the site of opts.ProjectDir in one Hugo build, as
// docweave did before it rendered in parts: the same pages, with nothing
// stored and nothing reused. It is the reference that rendering in parts
// is checked against (the same files, main content and search entries)
// and the render half of the benchmarks' floor.
func RenderWhole(ctx context.Context, opts Options) (Result, error) {
	return renderWhole(ctx, opts, theme.FS())
}

func renderWhole(ctx context.Context, opts Options, themeFS fs.FS) (Result, error) {
	if len(opts.Repositories) == 0 {
		abs, err := filepath.Abs(opts.ProjectDir)
		if err != nil {
			return Result{}, err
		}
		if opts.Repositories, err = repositoriesOfContent(filepath.Join(abs, "content")); err != nil {
			return Result{}, err
		}
	}
	res, err := renderProject(ctx, opts, hugobuild.Role{Whole: true}, themeFS)
	if err != nil {
		return res, err
	}
	return res, compactWholeSearch(opts)
}

// compactWholeSearch turns the one search index file of a one-piece
// render into the pieces an assembly writes (package searchindex), so that
// both publish the same site.
func compactWholeSearch(opts Options) error {
	units := model.Units(opts.Repositories)
	paths := make([]string, len(units))
	for i, u := range units {
		paths[i] = u.Path
	}
	byUnit, err := splitSearch(opts.PublishDir, opts.Generator.BaseURL, paths)
	if err != nil || len(byUnit) == 0 {
		return err // no index: a site without search
	}
	books := make([][]searchindex.Entry, len(paths))
	for i, p := range paths {
		books[i] = byUnit[p]
	}
	files, err := searchindex.Compact(books)
	if err != nil {
		return err
	}
	_, err = assembly.PlaceSearchFiles(opts.PublishDir, files, nil)
	return err
}

// repositoriesOfContent names a repository after each directory directly
// under contentDir, for a project laid out by hand without a list.
func repositoriesOfContent(contentDir string) ([]Repository, error) {
	entries, err := os.ReadDir(contentDir)
	if err != nil {
		return nil, fmt.Errorf("site: %w", err)
	}
	var repos []Repository
	for _, e := range entries {
		if e.IsDir() && e.Name()[0] != '.' {
			repos = append(repos, Repository{Name: e.Name(), ContentPath: e.Name()})
		}
	}
	sort.Slice(repos, func(i, j int) bool { return repos[i].Name < repos[j].Name })
	return repos, nil
}
