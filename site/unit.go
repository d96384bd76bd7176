package site

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site/theme"
)

// UnitOptions says which unit of a site to render and where.
type UnitOptions struct {
	// ProjectDir is the unit's Hugo project: its documentation is at
	// content/<Unit>/, and content/ holds nothing else. RenderUnit adds
	// its own files under ProjectDir/.docweave.
	ProjectDir string
	// PublishDir receives the unit's published files at their site paths
	// (docs/<Unit>/…); it must be empty or absent.
	PublishDir string
	// Generator and Repositories describe the whole site, as for every
	// other unit of it: what a page shows of the site comes from them.
	Generator    config.Generator
	Repositories []Repository
	// Unit is the unit's content path: a repository's ContentPath, or
	// <ContentPath>/<Slug> for one version of a versioned repository.
	Unit   string
	Logger zerolog.Logger
}

// UnitResult is a rendered unit.
type UnitResult struct {
	Result
	// Facts is the unit's facts file (layouts/home.unitfacts.json): its
	// pages, their titles, URLs and terms, for the assembly.
	Facts []byte
	// Search is the unit's entries of the search index, a JSON array; nil
	// when the site has no search (disableSearch).
	Search []byte
}

// RenderUnit renders one unit of a site on its own: a Hugo build of the
// unit's documentation, with the theme and the site's settings, of which
// only the unit's own pages and files are kept. Its pages are the pages
// the site shows for the unit, except for the version switcher's list,
// which the assembly fills in.
func RenderUnit(ctx context.Context, opts UnitOptions) (UnitResult, error) {
	return renderUnit(ctx, opts, theme.FS())
}

func renderUnit(ctx context.Context, opts UnitOptions, themeFS fs.FS) (UnitResult, error) {
	if err := checkUnit(opts); err != nil {
		return UnitResult{}, err
	}
	if err := validatePublishDir(opts.PublishDir, opts.ProjectDir); err != nil {
		return UnitResult{}, err
	}
	scratch := filepath.Join(opts.ProjectDir, generatedDirName, "publish")
	if err := os.RemoveAll(scratch); err != nil {
		return UnitResult{}, fmt.Errorf("render unit %s: %w", opts.Unit, err)
	}
	defer os.RemoveAll(scratch)
	res, err := renderProject(ctx, Options{
		ProjectDir:   opts.ProjectDir,
		PublishDir:   scratch,
		Generator:    opts.Generator,
		Repositories: opts.Repositories,
		Logger:       opts.Logger.With().Str("unit", opts.Unit).Logger(),
	}, renderRole{unit: opts.Unit}, themeFS)
	if err != nil {
		return UnitResult{}, fmt.Errorf("render unit %s: %w", opts.Unit, err)
	}
	out := UnitResult{Result: res}
	out.Facts, err = os.ReadFile(filepath.Join(scratch, "_unit", "facts.json"))
	switch {
	case errors.Is(err, os.ErrNotExist):
		// A theme without the facts template (a benchmark's minimal one):
		// the assembly then knows the unit by its path only.
		out.Facts, _ = json.Marshal(unitFacts{Unit: opts.Unit, Pages: []pageFact{}})
	case err != nil:
		return UnitResult{}, fmt.Errorf("render unit %s: its facts: %w", opts.Unit, err)
	}
	if search, err := os.ReadFile(filepath.Join(scratch, "search", "index.json")); err == nil {
		out.Search = search
	} else if !errors.Is(err, os.ErrNotExist) {
		return UnitResult{}, fmt.Errorf("render unit %s: its search entries: %w", opts.Unit, err)
	}
	// Keep docs/<unit>/ only: the rest (home, taxonomies, assets) is the
	// assembly's to publish.
	own := filepath.Join(scratch, "docs", filepath.FromSlash(opts.Unit))
	dst := filepath.Join(opts.PublishDir, "docs", filepath.FromSlash(opts.Unit))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return UnitResult{}, fmt.Errorf("render unit %s: %w", opts.Unit, err)
	}
	if _, err := os.Stat(own); errors.Is(err, os.ErrNotExist) {
		// A unit without a single page or file publishes nothing.
		out.Files = 0
		return out, nil
	}
	if err := os.Rename(own, dst); err != nil {
		return UnitResult{}, fmt.Errorf("render unit %s: %w", opts.Unit, err)
	}
	if out.Files, err = countFiles(opts.PublishDir); err != nil {
		return UnitResult{}, err
	}
	return out, nil
}

// checkUnit requires Unit to name a unit of Repositories and the project's
// content/ to hold that unit only.
func checkUnit(opts UnitOptions) error {
	if _, ok := unitOf(opts.Repositories, opts.Unit); !ok {
		return fmt.Errorf("site: Unit %q is not the content path of a repository or of a version of one in Repositories", opts.Unit)
	}
	entries, err := os.ReadDir(filepath.Join(opts.ProjectDir, "content"))
	if err != nil {
		return fmt.Errorf("site: ProjectDir %q: %w", opts.ProjectDir, err)
	}
	top, _, _ := strings.Cut(opts.Unit, "/")
	for _, e := range entries {
		if e.Name() != top {
			return fmt.Errorf("site: ProjectDir %q holds content/%s besides unit %s; expected the unit's documentation only", opts.ProjectDir, e.Name(), opts.Unit)
		}
	}
	return nil
}

// Unit is one unit of a site: a repository, or one version of a
// versioned one.
type Unit struct {
	// Path is its content path: ContentPath, or ContentPath/Slug.
	Path string
	// Repository is the repository it belongs to.
	Repository Repository
	// Version is the version it is, for a versioned repository.
	Version *Version
}

// Units lists the units of a site's repositories in menu order: each
// repository, or each version of a versioned one in switcher order.
func Units(repos []Repository) []Unit {
	var out []Unit
	for _, r := range repos {
		if len(r.Versions) == 0 {
			out = append(out, Unit{Path: r.ContentPath, Repository: r})
			continue
		}
		for i := range r.Versions {
			out = append(out, Unit{Path: path.Join(r.ContentPath, r.Versions[i].Slug), Repository: r, Version: &r.Versions[i]})
		}
	}
	return out
}

// unitOf finds the unit with the given content path.
func unitOf(repos []Repository, unitPath string) (Unit, bool) {
	for _, u := range Units(repos) {
		if u.Path == unitPath {
			return u, true
		}
	}
	return Unit{}, false
}
