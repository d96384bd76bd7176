package assembly

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/site/internal/hugobuild"
	"github.com/docweave/docweave/site/internal/mdcopy"
	"github.com/docweave/docweave/site/internal/model"
	"github.com/docweave/docweave/site/internal/sitemap"
)

// machinesDir is where the files for machines are written before they
// are put in place, inside the publish directory (so a rename moves
// them), removed when the assembly ends.
const machinesDir = ".docweave-machines"

// writeForMachines writes what crawlers and the tools people read through
// look for at the site's root: sitemap.xml (with its parts past 50,000
// pages) and robots.txt (package sitemap), from every unit page's URL and
// the time its content last changed (urls, as publishedURLs made them),
// and llms.txt (package mdcopy), each repository's default version's
// pages with their descriptions. The units' own llms files and Markdown
// copies came with their output. Each file is written aside and renamed
// over the one in place only when it changed: a file of the site is never
// written into (it may be a link), and an unchanged one keeps its time.
func (p *PlacedSite) writeForMachines(dir string, g config.Generator, repos []model.Repository, facts map[string]*model.UnitFacts, urls []events.PublishedURL) error {
	tmp := filepath.Join(dir, machinesDir)
	if err := os.RemoveAll(tmp); err != nil {
		return fmt.Errorf("site: assemble: %w", err)
	}
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return fmt.Errorf("site: assemble: %w", err)
	}
	defer os.RemoveAll(tmp)

	base := hugobuild.SitePath(g.BaseURL)
	entries := []sitemap.Entry{{URL: base}, {URL: base + "docs/"}}
	for _, u := range urls {
		if u.URL != "" {
			entries = append(entries, sitemap.Entry{URL: u.URL, Changed: u.Changed})
		}
	}
	written, err := sitemap.Write(tmp, g.BaseURL, entries)
	if err != nil {
		return fmt.Errorf("site: assemble: %w", err)
	}

	var sections []mdcopy.Section
	for _, r := range repos {
		unit := r.ContentPath
		if v, ok := model.DefaultVersion(r); ok {
			unit = path.Join(r.ContentPath, v.Slug)
		}
		f := facts[unit]
		if f == nil {
			continue
		}
		s := mdcopy.Section{Name: r.Name, URL: base + "docs/" + unit + "/"}
		for _, pf := range f.Pages {
			s.Pages = append(s.Pages, mdcopy.Page{Path: pf.Path, URL: pf.URL, Title: pf.Title, Description: pf.Description})
		}
		sections = append(sections, s)
	}
	if err := mdcopy.New(g.BaseURL).WriteSiteIndex(tmp, hugobuild.SiteTitle(g), g.Description, sections); err != nil {
		return fmt.Errorf("site: assemble: %w", err)
	}
	written = append(written, "llms.txt")

	placed := make(map[string]string, len(p.Machines))
	for _, f := range p.Machines {
		placed[f.Rel] = f.Hash
	}
	var out []FileHash
	for _, name := range written {
		from := filepath.Join(tmp, name)
		hash, err := hashFile(from)
		if err != nil {
			return fmt.Errorf("site: assemble: %w", err)
		}
		out = append(out, FileHash{Rel: name, Hash: hash})
		if placed[name] == hash {
			if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
				continue
			}
		}
		if err := os.Rename(from, filepath.Join(dir, name)); err != nil {
			return fmt.Errorf("site: assemble: %w", err)
		}
	}
	for _, f := range p.Machines {
		if !slices.Contains(written, f.Rel) {
			if err := removeFile(dir, f.Rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	slices.SortFunc(out, func(a, b FileHash) int { return strings.Compare(a.Rel, b.Rel) })
	p.Machines = out
	return nil
}
