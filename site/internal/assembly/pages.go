package assembly

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site/internal/hugobuild"
	"github.com/docweave/docweave/site/internal/model"
	"github.com/docweave/docweave/site/theme"
)

// assembledKeep is how many assemblies' pages stay in the work directory:
// the current one and the one before it.
const assembledKeep = 2

// assemblyPages are the pages that span units, as one assembly would
// render them: the stand-ins and pages it writes as Hugo's content (see
// stubs), the Hugo configuration, and the key of both. Equal keys give
// equal pages, so pages rendered once are taken again by every assembly
// with the same key.
type assemblyPages struct {
	layout  hugobuild.Layout
	themeFS fs.FS
	stubs   map[string][]byte // slash path below content/ → file
	config  map[string]any
	key     string
	dir     string // where the pages are (or go): <WorkDir>/.docweave/assembled/<key>
	terms   termInputs
	// partial is set when dir lacks the term pages reused from the
	// publish directory: it is removed once placed, never taken again.
	partial bool
}

func newAssemblyPages(opts Options, themeFS fs.FS, facts map[string]*model.UnitFacts, counts map[string]int, recent []map[string]any) (*assemblyPages, error) {
	p := &assemblyPages{themeFS: themeFS}
	var err error
	if p.stubs, err = stubFiles(opts.Repositories, facts); err != nil {
		return nil, err
	}
	p.layout = hugobuild.NewLayout(opts.WorkDir, "")
	stubs := filepath.Join(p.layout.Generated, "stubs")
	p.config = hugobuild.Config(opts.Generator, opts.Repositories, p.layout, hugobuild.Plan{Stubs: stubs}, hugobuild.Role{PageCounts: counts, Recent: recent})
	themeSum, err := hugobuild.FSHash(themeFS)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\nassembly\n%s\n%s\n", hugobuild.AddressVersion, hugobuild.RendererID(), themeSum)
	h.Write(configWithoutPaths(p.config))
	for _, rel := range slices.Sorted(maps.Keys(p.stubs)) {
		fmt.Fprintf(h, "%s\x00%x\n", rel, sha256.Sum256(p.stubs[rel]))
	}
	p.key = hex.EncodeToString(h.Sum(nil))
	p.dir = filepath.Join(p.layout.Generated, "assembled", p.key)
	if p.terms, err = termDigests(p.config, p.stubs); err != nil {
		return nil, err
	}
	return p, nil
}

// build renders the pages unless an earlier assembly left them in the
// work directory; it reports whether Hugo ran. The term pages of reuse
// are not rendered (their files stay where they are placed); it returns
// those it left out, none when the pages were taken whole.
func (p *assemblyPages) build(ctx context.Context, log zerolog.Logger, reuse map[string]PlacedTerm) (bool, map[string]PlacedTerm, error) {
	built, err := p.render(ctx, log, reuse)
	if !p.partial {
		reuse = nil
	}
	return built, reuse, err
}

func (p *assemblyPages) render(ctx context.Context, log zerolog.Logger, reuse map[string]PlacedTerm) (bool, error) {
	if st, err := os.Stat(p.dir); err == nil && st.IsDir() {
		return false, nil
	}
	if cascade := termCascade(reuse); cascade != nil {
		p.config["cascade"] = cascade
		p.dir += ".partial"
		p.partial = true
		if err := os.RemoveAll(p.dir); err != nil {
			return false, fmt.Errorf("site: assemble: %w", err)
		}
	}
	l := p.layout
	stubs := filepath.Join(l.Generated, "stubs")
	// The stand-ins reach Hugo from memory (memDirFs); stubs on disk are
	// an earlier version's.
	for _, dir := range []string{stubs, l.ConfigFile} {
		if err := os.RemoveAll(dir); err != nil {
			return false, fmt.Errorf("site: assemble: clear %s: %w", dir, err)
		}
	}
	source, err := hugobuild.NewMemDirFs(stubs, p.stubs)
	if err != nil {
		return false, fmt.Errorf("site: assemble: %w", err)
	}
	if err := l.InstallTheme(p.themeFS, theme.Name); err != nil {
		return false, err
	}
	staging := p.dir + ".tmp"
	if err := os.RemoveAll(staging); err != nil {
		return false, fmt.Errorf("site: assemble: %w", err)
	}
	l.PublishDir = staging
	p.config["publishDir"] = staging
	if err := hugobuild.WriteConfig(l.ConfigFile, p.config); err != nil {
		return false, err
	}
	if err := runAssemblyBuild(ctx, l, source, log); err != nil {
		os.RemoveAll(staging)
		return false, err
	}
	if err := os.Rename(staging, p.dir); err != nil {
		return false, fmt.Errorf("site: assemble: %w", err)
	}
	if !p.partial {
		pruneAssembled(filepath.Dir(p.dir), p.key)
	}
	return true, nil
}

// pruneAssembled keeps the assembledKeep newest assemblies' pages.
func pruneAssembled(dir, current string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type aged struct {
		name string
		mod  int64
	}
	var list []aged
	for _, e := range entries {
		if info, err := e.Info(); err == nil && e.IsDir() && e.Name() != current {
			list = append(list, aged{e.Name(), info.ModTime().UnixNano()})
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].mod > list[j].mod })
	for i, a := range list {
		if i >= assembledKeep-1 {
			os.RemoveAll(filepath.Join(dir, a.name))
		}
	}
}

// configWithoutPaths is the Hugo configuration as the key sees it: the
// directories of this process left out, since they do not change a page.
func configWithoutPaths(cfg map[string]any) []byte {
	cp := make(map[string]any, len(cfg))
	for k, v := range cfg {
		switch k {
		case "publishDir", "themesDir", "cacheDir", "resourceDir", "module":
			continue
		case "params":
			params := map[string]any{}
			for pk, pv := range v.(map[string]any) {
				params[pk] = pv
			}
			if dw, ok := params[config.ReservedParam].(map[string]any); ok {
				trimmed := map[string]any{}
				for dk, dv := range dw {
					if dk != "contentDir" && dk != "pagesDir" {
						trimmed[dk] = dv
					}
				}
				params[config.ReservedParam] = trimmed
			}
			v = params
		}
		cp[k] = v
	}
	data, _ := json.Marshal(cp) // plain values: maps, strings, numbers
	return data
}

// stubFiles are the assembly's content, as files below content/:
//
//   - docs/_index.md, the /docs/ page;
//   - a page for each directory above units that is no repository (a
//     forge's directory), as the units' renders generate them;
//   - a versioned repository's root page, which leads to its default
//     version (layout version-redirect);
//   - a stand-in for each unit's root page (listed in its directory, so
//     a forge's page lists its repositories), and for every page that
//     carries a taxonomy term.
func stubFiles(repos []model.Repository, facts map[string]*model.UnitFacts) (map[string][]byte, error) {
	stubs := map[string]map[string]any{}
	titles := hugobuild.SectionTitles(repos)
	stubs["docs/_index.md"] = map[string]any{"title": hugobuild.SectionTitle(".", titles)}
	for _, u := range model.Units(repos) {
		for up := path.Dir(u.Repository.ContentPath); up != "."; up = path.Dir(up) {
			stubs[path.Join("docs", up, "_index.md")] = map[string]any{"title": hugobuild.SectionTitle(up, titles)}
		}
		if u.Version != nil {
			stubs[path.Join("docs", u.Repository.ContentPath, "_index.md")] = map[string]any{"title": u.Repository.Name, "layout": hugobuild.VersionRedirectLayout}
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
	out := make(map[string][]byte, len(stubs))
	for rel, front := range stubs {
		data, err := json.Marshal(front)
		if err != nil {
			return nil, fmt.Errorf("site: assemble: stub %s: %w", rel, err)
		}
		out[rel] = append(data, '\n')
	}
	return out, nil
}
