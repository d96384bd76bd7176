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
	"github.com/docweave/docweave/site/internal/hugobuild"
	"github.com/docweave/docweave/site/internal/model"
	"github.com/docweave/docweave/site/internal/rawsyntax"
	"github.com/docweave/docweave/site/internal/searchindex"
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
	// Err is set, in a batch (RenderBatch), for a unit that could not be
	// rendered while the others were.
	Err error
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
	res, err := renderBatch(ctx, batchOptions{
		ProjectDir: opts.ProjectDir, Generator: opts.Generator, Repositories: opts.Repositories, Logger: opts.Logger,
		Units: []batchUnit{{Unit: opts.Unit, PublishDir: opts.PublishDir}},
	}, themeFS)
	if err != nil {
		return UnitResult{}, err
	}
	if res[0].Err != nil {
		return UnitResult{}, res[0].Err
	}
	return res[0], nil
}

// batchOptions says which units of one site to render in one Hugo build
// (renderBatch).
type batchOptions struct {
	// ProjectDir holds each unit's documentation at content/<Unit>/, and
	// nothing else under content/.
	ProjectDir string
	// Units are the units to render, each with the directory its files
	// go to (as UnitOptions.PublishDir).
	Units []batchUnit
	// Generator and Repositories describe the whole site.
	Generator    config.Generator
	Repositories []Repository
	Logger       zerolog.Logger
}

// batchUnit is one unit of a batch.
type batchUnit struct {
	Unit       string
	PublishDir string
}

// renderBatch renders several units of one site in one Hugo build; a
// unit alone (RenderUnit) is a batch of one. Every unit's result is what
// it gets alone: the theme's pages show nothing of another unit that is
// not in the settings (hugobuild/params.go), a page's problems are its unit's, and a
// unit most of whose pages cannot render fails alone (UnitResult.Err). An
// error means the batch as a whole could not be rendered. The render stage
// renders one unit per build: batches of 8 units of the 20x50 farm cost
// about twice the CPU of the same units one by one (docs/performance.md),
// so batches stay here, tested, for the day a theme makes them pay.
func renderBatch(ctx context.Context, opts batchOptions, themeFS fs.FS) ([]UnitResult, error) {
	if len(opts.Units) == 0 {
		return nil, errors.New("site: a batch of no units")
	}
	paths := make([]string, len(opts.Units))
	tops := map[string]bool{}
	for i, u := range opts.Units {
		if _, ok := model.UnitOf(opts.Repositories, u.Unit); !ok {
			return nil, fmt.Errorf("site: Unit %q is not the content path of a repository or of a version of one in Repositories", u.Unit)
		}
		if err := hugobuild.ValidatePublishDir(u.PublishDir, opts.ProjectDir); err != nil {
			return nil, err
		}
		paths[i] = u.Unit
		top, _, _ := strings.Cut(u.Unit, "/")
		tops[top] = true
	}
	entries, err := os.ReadDir(filepath.Join(opts.ProjectDir, "content"))
	if err != nil {
		return nil, fmt.Errorf("site: ProjectDir %q: %w", opts.ProjectDir, err)
	}
	for _, e := range entries {
		if !tops[e.Name()] {
			return nil, fmt.Errorf("site: ProjectDir %q holds content/%s besides units %s; expected the units' documentation only", opts.ProjectDir, e.Name(), strings.Join(paths, ", "))
		}
	}
	scratch := filepath.Join(opts.ProjectDir, hugobuild.GeneratedDirName, "publish")
	if err := os.RemoveAll(scratch); err != nil {
		return nil, fmt.Errorf("render units: %w", err)
	}
	defer os.RemoveAll(scratch)
	log := opts.Logger
	if len(paths) == 1 {
		log = log.With().Str("unit", paths[0]).Logger()
	}
	res, detail, err := renderProjectDetailed(ctx, Options{
		ProjectDir:   opts.ProjectDir,
		PublishDir:   scratch,
		Generator:    opts.Generator,
		Repositories: opts.Repositories,
		Logger:       log,
	}, hugobuild.Role{Units: paths}, themeFS)
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", unitsNamed(paths), err)
	}
	facts, err := splitFacts(scratch, paths)
	if err != nil {
		return nil, err
	}
	search, err := splitSearch(scratch, opts.Generator.BaseURL, paths)
	if err != nil {
		return nil, err
	}
	out := make([]UnitResult, len(opts.Units))
	for i, u := range opts.Units {
		r := &out[i]
		r.Facts = facts[u.Unit]
		if search != nil {
			if r.Search, err = json.Marshal(search[u.Unit]); err != nil {
				return nil, fmt.Errorf("render unit %s: its search entries: %w", u.Unit, err)
			}
		}
		markdown, excluded := 0, 0
		for _, file := range detail.markdown {
			if hasPathPrefix(file, u.Unit) {
				markdown++
				if detail.excluded[file] {
					excluded++
				}
			}
		}
		for _, is := range res.Issues {
			if hasPathPrefix(is.Path, u.Unit) {
				r.Issues = append(r.Issues, is)
			}
		}
		raw, err := rawSyntaxIssues(scratch, filepath.Join(opts.ProjectDir, "content"), hugobuild.SitePath(opts.Generator.BaseURL), r.Facts, detail.indexFiles)
		if err != nil {
			return nil, fmt.Errorf("render unit %s: %w", u.Unit, err)
		}
		r.Issues = append(r.Issues, raw...)
		unit, _ := model.UnitOf(opts.Repositories, u.Unit)
		if _, err := markdownCopies(scratch, opts.Generator.BaseURL, unit, r.Facts); err != nil {
			return nil, err
		}
		if err := checkUnitLinks(r, u.Unit, scratch, hugobuild.SitePath(opts.Generator.BaseURL), detail, log); err != nil {
			return nil, fmt.Errorf("render unit %s: %w", u.Unit, err)
		}
		r.Pages = detail.pagesBelow(u.Unit)
		if len(paths) > 1 && excluded > markdown/2 {
			r.Err = fmt.Errorf("render unit %s: %d of %d pages cannot render, which points at the theme or the configuration rather than the pages", u.Unit, excluded, markdown)
			continue
		}
		// Keep docs/<unit>/ only: the rest (home, taxonomies, assets) is
		// the assembly's to publish.
		own := filepath.Join(scratch, "docs", filepath.FromSlash(u.Unit))
		dst := filepath.Join(u.PublishDir, "docs", filepath.FromSlash(u.Unit))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, fmt.Errorf("render unit %s: %w", u.Unit, err)
		}
		if _, err := os.Stat(own); errors.Is(err, os.ErrNotExist) {
			continue // a unit without a single page or file publishes nothing
		}
		if err := os.Rename(own, dst); err != nil {
			return nil, fmt.Errorf("render unit %s: %w", u.Unit, err)
		}
		if r.Files, err = hugobuild.CountFiles(u.PublishDir); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// unitsNamed names the units of a render for its errors.
func unitsNamed(paths []string) string {
	if len(paths) == 1 {
		return "unit " + paths[0]
	}
	return "units " + strings.Join(paths, ", ")
}

// splitFacts reads the facts file of a render and returns each unit's
// facts. A theme without the facts template (a benchmark's minimal one)
// gives each unit facts naming it only.
func splitFacts(publish string, units []string) (map[string][]byte, error) {
	out := map[string][]byte{}
	data, err := os.ReadFile(filepath.Join(publish, "_unit", "facts.json"))
	if errors.Is(err, os.ErrNotExist) {
		for _, u := range units {
			out[u], _ = json.Marshal(model.UnitFacts{Unit: u, Pages: []model.PageFact{}})
		}
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("render %s: its facts: %w", unitsNamed(units), err)
	}
	var list []json.RawMessage
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("render %s: its facts: %w", unitsNamed(units), err)
	}
	for _, raw := range list {
		var head struct {
			Unit string `json:"unit"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return nil, fmt.Errorf("render %s: its facts: %w", unitsNamed(units), err)
		}
		out[head.Unit] = raw
	}
	for _, u := range units {
		if out[u] == nil {
			return nil, fmt.Errorf("render %s: no facts for unit %s", unitsNamed(units), u)
		}
	}
	return out, nil
}

// splitSearch reads the search records of a render (package searchindex)
// and returns each unit's entries, in the order they came: an entry
// belongs to the unit whose root URL its URL starts with. Nil when the
// site has no search.
func splitSearch(publish, baseURL string, units []string) (map[string][]searchindex.Entry, error) {
	data, err := os.ReadFile(filepath.Join(publish, "search", "index.json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("render %s: its search entries: %w", unitsNamed(units), err)
	}
	entries, err := searchindex.ReadRecords(data)
	if err != nil {
		return nil, fmt.Errorf("render %s: its search entries: %w", unitsNamed(units), err)
	}
	base := hugobuild.SitePath(baseURL)
	byUnit := map[string][]searchindex.Entry{}
	for _, e := range entries {
		owner := ""
		for _, u := range units {
			root := path.Join(base, "docs", u) + "/"
			if strings.HasPrefix(e.URL, root) && len(u) > len(owner) {
				owner = u
			}
		}
		if owner != "" {
			byUnit[owner] = append(byUnit[owner], e)
		}
	}
	for _, u := range units {
		if byUnit[u] == nil {
			byUnit[u] = []searchindex.Entry{}
		}
	}
	return byUnit, nil
}

// rawSyntaxIssues reads (package rawsyntax) each rendered page of a unit
// that has a file in contentDir (its facts, as splitFacts gives them,
// under publish, the render's output; basePath the site's path;
// indexFiles the files mounted as directories' _index) and returns a
// RAW_SYNTAX issue for each kind of source syntax a reader meets as text
// on it, naming the page's file and an example. These issues are how the
// build report counts, per repository, what no dialect converted.
func rawSyntaxIssues(publish, contentDir, basePath string, facts []byte, indexFiles map[string]string) ([]model.Issue, error) {
	var uf model.UnitFacts
	if err := json.Unmarshal(facts, &uf); err != nil {
		return nil, fmt.Errorf("read facts of unit: %w", err)
	}
	var read []rawsyntax.Page
	for _, p := range uf.Pages {
		file, ok := strings.CutPrefix(p.File, "docs/") // Hugo's content/docs is our content/
		if !ok {
			continue // a directory page without a file of its own
		}
		if path.Base(file) == "_index"+path.Ext(file) {
			if src, ok := indexFiles[path.Dir(file)]; ok {
				file = src // index.md or README.md, mounted as _index.md
			}
		}
		if _, err := os.Stat(filepath.Join(contentDir, filepath.FromSlash(file))); err != nil {
			continue // a page docweave made (a folder's listing): its text is its pages'
		}
		rel, ok := strings.CutPrefix(p.URL, basePath)
		if !ok || strings.Contains(rel, "..") {
			continue
		}
		read = append(read, rawsyntax.Page{File: file, HTML: filepath.Join(publish, filepath.FromSlash(rel), "index.html")})
	}
	return rawsyntax.Issues(read)
}

// hasPathPrefix reports whether p is dir or below it (slash paths).
func hasPathPrefix(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+"/")
}
