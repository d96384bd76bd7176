package site

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/gohugoio/hugo/hugolib"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site/theme"
)

// AssembleOptions says what makes up a site and where to publish it.
type AssembleOptions struct {
	// WorkDir is the assembly's own Hugo project: its generated files are
	// replaced, its theme and caches kept for the next assembly.
	WorkDir string
	// PublishDir receives the whole site; it must be empty or absent.
	PublishDir string
	// Generator and Repositories describe the site, as they did for
	// every unit's render.
	Generator    config.Generator
	Repositories []Repository
	// Units are the rendered units, in any order. A unit of Repositories
	// that is not here is not on the site.
	Units  []AssembledUnit
	Logger zerolog.Logger
}

// AssembledUnit is one rendered unit, as the assembly takes it.
type AssembledUnit struct {
	// Path is the unit's content path (see UnitOptions.Unit).
	Path string
	// Facts and Search are the unit's UnitResult.Facts and .Search.
	Facts  []byte
	Search []byte
	// Place writes the unit's published files (what RenderUnit wrote to
	// its PublishDir) below dir. They may be hard links into a store:
	// the assembly never writes into a placed file, it replaces it.
	Place func(ctx context.Context, dir string) error
}

// AssembleResult summarises an assembly.
type AssembleResult struct {
	// Files is the number of files of the published site.
	Files int
	// Patched is the number of the units' pages whose version switcher
	// was filled in (written anew rather than placed as they were).
	Patched int
}

// unitFacts is a unit's facts file (layouts/home.unitfacts.json).
type unitFacts struct {
	Unit         string     `json:"unit"`
	RegularPages int        `json:"regularPages"`
	Pages        []pageFact `json:"pages"`

	byPath map[string]string // page path → URL, made on first use (see url)
}

// pageFact is one page of a unit, as its facts file describes it.
type pageFact struct {
	Path      string              `json:"path"`
	URL       string              `json:"url"`
	Kind      string              `json:"kind"`
	Title     string              `json:"title"`
	RawTitle  string              `json:"rawTitle"`
	LinkTitle string              `json:"linkTitle"`
	Weight    int                 `json:"weight"`
	Date      string              `json:"date"`
	File      string              `json:"file"`
	Terms     map[string][]string `json:"terms"`
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
func Assemble(ctx context.Context, opts AssembleOptions) (AssembleResult, error) {
	return assemble(ctx, opts, theme.FS())
}

func assemble(ctx context.Context, opts AssembleOptions, themeFS fs.FS) (AssembleResult, error) {
	start := time.Now()
	if err := validateRepositories(opts.Repositories); err != nil {
		return AssembleResult{}, err
	}
	if err := validatePublishDir(opts.PublishDir, opts.WorkDir); err != nil {
		return AssembleResult{}, err
	}
	facts := make(map[string]*unitFacts, len(opts.Units))
	counts := make(map[string]int, len(opts.Units))
	for _, u := range opts.Units {
		if _, ok := unitOf(opts.Repositories, u.Path); !ok {
			return AssembleResult{}, fmt.Errorf("site: assemble: unit %q is not a unit of Repositories", u.Path)
		}
		var f unitFacts
		if err := json.Unmarshal(u.Facts, &f); err != nil {
			return AssembleResult{}, fmt.Errorf("site: assemble: facts of unit %s: %w", u.Path, err)
		}
		facts[u.Path] = &f
		counts[u.Path] = f.RegularPages
	}
	l := newProjectLayout(opts.WorkDir, opts.PublishDir)
	stubs := filepath.Join(l.Generated, "stubs")
	for _, p := range []string{stubs, l.ConfigFile} {
		if err := os.RemoveAll(p); err != nil {
			return AssembleResult{}, fmt.Errorf("site: assemble: clear %s: %w", p, err)
		}
	}
	if err := writeStubs(stubs, opts.Repositories, facts); err != nil {
		return AssembleResult{}, err
	}
	if err := l.installTheme(themeFS, theme.Name); err != nil {
		return AssembleResult{}, err
	}
	siteOpts := Options{ProjectDir: opts.WorkDir, PublishDir: opts.PublishDir, Generator: opts.Generator, Repositories: opts.Repositories}
	if err := writeHugoConfig(l.ConfigFile, hugoConfig(siteOpts, l, contentPlan{stubs: stubs}, renderRole{pageCounts: counts})); err != nil {
		return AssembleResult{}, err
	}
	log := opts.Logger.With().Str("component", "site").Logger()
	if err := runAssemblyBuild(ctx, l, log); err != nil {
		return AssembleResult{}, err
	}
	for _, u := range opts.Units {
		if err := u.Place(ctx, opts.PublishDir); err != nil {
			return AssembleResult{}, fmt.Errorf("site: assemble: place unit %s: %w", u.Path, err)
		}
	}
	patched, err := fillVersionSwitchers(opts.PublishDir, opts.Repositories, facts)
	if err != nil {
		return AssembleResult{}, err
	}
	if search, _ := lookupParam(opts.Generator.Params, "disableSearch").(bool); !search {
		if err := writeSearchIndex(opts.PublishDir, opts.Repositories, opts.Units); err != nil {
			return AssembleResult{}, err
		}
	}
	res := AssembleResult{Patched: patched}
	if res.Files, err = countFiles(opts.PublishDir); err != nil {
		return AssembleResult{}, err
	}
	log.Info().Int("units", len(opts.Units)).Int("files", res.Files).Int("pages_patched", patched).
		Int64("duration_ms", time.Since(start).Milliseconds()).Msg("site assembled")
	return res, nil
}

// runAssemblyBuild runs the assembly's one Hugo build, beside other
// builds of this process, or alone when Hugo counted errors it did not log
// itself (see hugoBuilds).
func runAssemblyBuild(ctx context.Context, l projectLayout, log zerolog.Logger) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("site: assemble: %w", err)
	}
	hugoBuilds.RLock()
	logged, err := assemblyBuild(l, log)
	hugoBuilds.RUnlock()
	if loggedElsewhere(err, logged) {
		log.Info().Err(err).Msg("hugo counted errors the assembly did not log; building again alone")
		if err := os.RemoveAll(l.PublishDir); err != nil {
			return fmt.Errorf("site: assemble: %w", err)
		}
		hugoBuilds.Lock()
		_, err = assemblyBuild(l, log)
		hugoBuilds.Unlock()
	}
	if err != nil {
		return err
	}
	return ctx.Err()
}

// assemblyBuild is one Hugo build of the assembly; it returns how many
// errors its own loggers recorded.
func assemblyBuild(l projectLayout, log zerolog.Logger) (int, error) {
	errs := &hugoErrors{}
	sites, err := newHugoSites(l, log, errs)
	if err != nil {
		return 0, fmt.Errorf("site: assemble: %w", err)
	}
	defer func() {
		if cerr := sites.Close(); cerr != nil {
			log.Warn().Err(cerr).Msg("closing hugo sites")
		}
	}()
	// The theme's own static files; the units' files are placed later.
	if _, err := copyStatic(sites, l.PublishDir); err != nil {
		return 0, fmt.Errorf("site: assemble: %w", err)
	}
	if err := sites.Build(hugolib.BuildCfg{}); err != nil {
		if logged := errs.String(); logged != "" {
			return len(errs.all()), fmt.Errorf("site: assemble: hugo build: %w (logged: %s)", err, logged)
		}
		return 0, fmt.Errorf("site: assemble: hugo build: %w", err)
	}
	return 0, nil
}

// writeStubs writes the assembly's content below dir (mounted as Hugo's
// content): the pages it renders and the stand-ins for units' pages.
//
//   - docs/_index.md, the /docs/ page;
//   - a page for each directory above units that is no repository (a
//     forge's directory), as the units' renders generate them;
//   - a versioned repository's root page, which leads to its default
//     version (layout version-redirect);
//   - a stand-in for each unit's root page (listed in its directory, so
//     a forge's page lists its repositories), and for every page that
//     carries a taxonomy term.
func writeStubs(dir string, repos []Repository, facts map[string]*unitFacts) error {
	stubs := map[string]map[string]any{}
	titles := sectionTitles(repos)
	stubs["docs/_index.md"] = map[string]any{"title": sectionTitle(".", titles)}
	for _, u := range Units(repos) {
		for up := path.Dir(u.Repository.ContentPath); up != "."; up = path.Dir(up) {
			stubs[path.Join("docs", up, "_index.md")] = map[string]any{"title": sectionTitle(up, titles)}
		}
		if u.Version != nil {
			stubs[path.Join("docs", u.Repository.ContentPath, "_index.md")] = map[string]any{"title": u.Repository.Name, "layout": versionRedirectLayout}
		}
		f := facts[u.Path]
		if f == nil {
			continue
		}
		for _, p := range f.Pages {
			file := p.File
			if p.Path == "" {
				file = path.Join("docs", u.Path, "_index.md")
			} else if len(p.Terms) == 0 || file == "" {
				continue
			}
			front := map[string]any{
				"title":         p.RawTitle,
				"docweaveTitle": p.Title,
				"weight":        p.Weight,
				"build":         map[string]any{"render": "link", "list": "always"},
			}
			if p.Path == "" && len(p.Terms) == 0 {
				front["build"] = map[string]any{"render": "link", "list": "local"}
			}
			if p.LinkTitle != "" {
				front["linkTitle"] = p.LinkTitle
			}
			if p.Date != "" {
				front["date"] = p.Date
			}
			for plural, terms := range p.Terms {
				front[plural] = terms
			}
			stubs[file] = front
		}
	}
	for rel, front := range stubs {
		data, err := json.Marshal(front)
		if err != nil {
			return fmt.Errorf("site: assemble: stub %s: %w", rel, err)
		}
		target := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return fmt.Errorf("site: assemble: %w", err)
		}
		if err := os.WriteFile(target, append(data, '\n'), 0o644); err != nil {
			return fmt.Errorf("site: assemble: %w", err)
		}
	}
	return nil
}

// writeSearchIndex writes search/index.json: every unit's entries, unit
// after unit in menu order.
func writeSearchIndex(publishDir string, repos []Repository, units []AssembledUnit) error {
	byPath := make(map[string]AssembledUnit, len(units))
	for _, u := range units {
		byPath[u.Path] = u
	}
	var b bytes.Buffer
	b.WriteByte('[')
	first := true
	for _, unit := range Units(repos) {
		u, ok := byPath[unit.Path]
		if !ok || len(u.Search) == 0 {
			continue
		}
		var entries []json.RawMessage
		if err := json.Unmarshal(u.Search, &entries); err != nil {
			return fmt.Errorf("site: assemble: search entries of unit %s: %w", u.Path, err)
		}
		for _, e := range entries {
			if !first {
				b.WriteByte(',')
			}
			first = false
			b.Write(e)
		}
	}
	b.WriteByte(']')
	file := filepath.Join(publishDir, "search", "index.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return fmt.Errorf("site: assemble: %w", err)
	}
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("site: assemble: %w", err)
	}
	return nil
}

// replaceFile writes data to file through a new file renamed over it, so
// a hard link that file was (into an artifact store) keeps its content.
func replaceFile(file string, data []byte) error {
	tmp := file + ".docweave-tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, file); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// hasPathPrefix reports whether p is dir or below it (slash paths).
func hasPathPrefix(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+"/")
}
