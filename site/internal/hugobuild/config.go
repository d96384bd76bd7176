package hugobuild

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site/internal/model"
	"github.com/docweave/docweave/site/theme"
)

// searchOutputFormat is the name of the home page's output format that
// writes the render's search entries to /search/index.json, as records
// of fields and page HTML (package searchindex reads them); the assembly writes the
// site's index from them over that file (package searchindex).
const searchOutputFormat = "searchindex"

// defaultTaxonomies apply when the configuration names none, as in the spec.
var defaultTaxonomies = map[string]string{"tag": "tags", "category": "categories"}

// Plan is what one render attempt renders: the planned sections and
// which pages are left out or rendered from their checked copies.
type Plan struct {
	Scan ContentScan
	// Excluded holds the pages left out (slash paths relative to content/).
	Excluded map[string]bool
	// Rewritten holds the pages rendered from their copy in PagesDir.
	Rewritten map[string]bool
	// Stubs, for the assembly, is the directory of the pages it renders
	// and the stand-ins for the units' pages (package assembly); it is
	// mounted as Hugo's content, and nothing else is.
	Stubs string
}

// Role says which part of a site a Hugo build renders: one unit, the
// assembly of the pages that span units, or a whole site in one piece.
type Role struct {
	// Units are the content paths of the units rendered (one, or a batch
	// of them); none for the assembly and for a whole site.
	Units []string
	// Whole renders every unit and what spans them in one Hugo build
	// (site.RenderWhole).
	Whole bool
	// PageCounts maps each unit's content path to its number of regular
	// pages, for the assembly's list of repositories.
	PageCounts map[string]int
	// Recent is the front page's "Recently updated", in the assembly
	// only.
	Recent []map[string]any
	// TemplateMetrics has Hugo time every template it executes, in a
	// render of a whole site only (see site.Options.TemplateMetrics).
	TemplateMetrics bool
}

// unitFactsOutputFormat is the home page's output format that writes a
// unit's facts (layouts/home.unitfacts.json) in a unit's render.
const unitFactsOutputFormat = "unitfacts"

// SiteTitle is the site's title as readers see it: generator.title, or
// "Documentation".
func SiteTitle(g config.Generator) string {
	if g.Title == "" {
		return "Documentation"
	}
	return g.Title
}

// Config builds the Hugo site configuration for one render. It is a
// plain map written as JSON, so the file in .docweave/hugo.json shows an
// operator exactly what Hugo was told.
func Config(g config.Generator, repos []model.Repository, l Layout, plan Plan, role Role) map[string]any {
	title := SiteTitle(g)

	params := map[string]any{}
	maps.Copy(params, g.Params)
	if g.Description != "" {
		params["description"] = g.Description
	}
	// nil means the configuration named none: the defaults. An empty map
	// means every taxonomy was dropped: no taxonomy or term pages at all
	// (Hugo would otherwise bring its own defaults back).
	taxonomies := g.Taxonomies
	disabled := []string{"rss", "sitemap", "robotstxt"}
	switch {
	case taxonomies == nil:
		taxonomies = defaultTaxonomies
	case len(taxonomies) == 0:
		disabled = append(disabled, "taxonomy", "term")
	}
	docweave := map[string]any{
		"repositories": RepositoryParams(repos, g.BaseURL, role.PageCounts, len(role.Units) == 0),
		"taxonomies":   taxonomyParams(taxonomies, g.BaseURL),
		// Where page files come from, so templates can tell a page's path
		// in its repository (for edit links) from its file name.
		"contentDir": l.ContentDir + "/",
		"pagesDir":   l.PagesDir + "/",
	}
	if role.Recent != nil {
		docweave["recent"] = role.Recent
	}
	params[config.ReservedParam] = docweave

	search := true
	if disabled, _ := LookupParam(g.Params, "disableSearch").(bool); disabled {
		search = false
	}
	homeOutputs := []string{"html"}
	if len(role.Units) > 0 {
		// A unit's render keeps only its own pages (site/unit.go); its home
		// page is written for the unit's facts and search entries (and as
		// an empty page, discarded, so that links to it keep its URL), and
		// the not-found page belongs to the assembly.
		docweave["units"] = role.Units
		homeOutputs = []string{linkOnlyOutputFormat, unitFactsOutputFormat}
		disabled = append(disabled, "404")
	}
	if search && (len(role.Units) > 0 || role.Whole) {
		homeOutputs = append(homeOutputs, searchOutputFormat)
	}

	cfg := map[string]any{
		"baseURL":                g.BaseURL,
		"title":                  title,
		"locale":                 "en",
		"defaultContentLanguage": "en",
		"timeZone":               "UTC",
		"theme":                  theme.Name,
		"themesDir":              l.ThemesDir,
		"publishDir":             l.PublishDir,
		"cacheDir":               l.CacheDir,
		"resourceDir":            l.ResourceDir,
		"enableGitInfo":          false,
		"noBuildLock":            true,
		// Keep the case of file names in URLs: links and images inside the
		// documentation are written against the files' real names.
		"disablePathToLower": true,
		// Tags are shown as written ("http", not "Http"); the theme
		// capitalises taxonomy names itself.
		"capitalizeListTitles": false,
		// Feeds, sitemaps and robots.txt are not part of this theme.
		"disableKinds": disabled,
		"taxonomies":   taxonomies,
		"params":       params,
		"outputFormats": map[string]any{
			searchOutputFormat: map[string]any{
				"mediaType":      "application/json",
				"baseName":       "index",
				"path":           "search",
				"isPlainText":    true,
				"notAlternative": true,
			},
			linkOnlyOutputFormat: map[string]any{
				"mediaType":      "text/html",
				"baseName":       "index",
				"isHTML":         true,
				"notAlternative": true,
			},
			unitFactsOutputFormat: map[string]any{
				"mediaType":      "application/json",
				"baseName":       "facts",
				"path":           "_unit",
				"isPlainText":    true,
				"notAlternative": true,
			},
		},
		// Docusaurus pages are often MDX (.mdx): Markdown with JSX, which
		// the docusaurus dialect converts before Hugo reads it as Markdown.
		"mediaTypes": map[string]any{
			"text/markdown": map[string]any{"suffixes": MarkdownSuffixes},
		},
		"outputs": outputs(homeOutputs, role),
		"module":  map[string]any{"mounts": mounts(l, plan)},
		"markup": map[string]any{
			// Documentation written for forges uses raw HTML (<details>,
			// <img width=…>, <br>) and expects it shown; Hugo's default
			// drops it. The repositories are chosen by the operator.
			//
			// Heading ids are made as GitHub makes them ("Set up, then
			// run!" is #set-up-then-run, a second "Usage" #usage-1), so
			// #fragment links written for GitHub lead to their heading.
			// The terms of definition lists get ids the same way, as on
			// Hugo's own site, whose reference pages link to them
			// (#cachedir for the term `cacheDir`).
			// Task lists and footnotes are on, as on GitHub (Hugo's
			// defaults, stated so a change of them shows here); "> [!NOTE]"
			// alerts are rendered by the theme's blockquote hook.
			"goldmark": map[string]any{
				"renderer":   map[string]any{"unsafe": true},
				"parser":     map[string]any{"autoHeadingID": true, "autoHeadingIDType": "github", "autoDefinitionTermID": true},
				"extensions": map[string]any{"taskList": true, "footnote": true},
			},
			// The in-page table of contents lists ## and ### headings;
			// the # heading is the page title.
			"tableOfContents": map[string]any{"startLevel": 2, "endLevel": 3, "ordered": false},
			// Highlighted code gets classes, coloured by the style sheet
			// for the light and the dark variant alike.
			"highlight": map[string]any{"noClasses": false},
		},
		// A ref or relref shortcode to a page that is not there is a
		// broken link, not a reason to drop the page or the site.
		"refLinksErrorLevel": "warning",
		// Nothing at render time may reach the network, run a program or
		// read the environment, whatever a repository's Markdown asks for.
		"security": map[string]any{
			"exec":  map[string]any{"allow": []string{"none"}, "osEnv": []string{"none"}},
			"funcs": map[string]any{"getenv": []string{"none"}},
			"http":  map[string]any{"urls": []string{"none"}},
		},
	}
	AddMenuWindow(cfg, docweave)
	if role.TemplateMetrics && role.Whole {
		// Hugo times every template it executes; site/render.go writes the
		// table out (see Options.TemplateMetrics).
		cfg["templateMetrics"] = true
	}
	return cfg
}

// mounts maps the project onto Hugo's component folders:
//   - the repositories' Markdown (content/) becomes the docs section;
//   - each index.md is mounted as its directory's _index.md, and the
//     generated directory pages are mounted beside the content;
//   - every non-Markdown file of content/ is published unchanged under
//     /docs/ at its source path, so relative image and file links work.
//
// Only Markdown is read as content, so a stray .html, .adoc or .rst file is
// served as a file instead of being refused or needing an external program.
// Hugo applies a mount's file patterns in order, first match wins.
//   - pages that needed changes are read from their checked copies in
//     PagesDir instead, and pages that cannot render are left out.
func mounts(l Layout, plan Plan) []map[string]any {
	if plan.Stubs != "" {
		return []map[string]any{{"source": plan.Stubs, "target": "content"}}
	}
	scan := plan.Scan
	dirs := slices.Sorted(maps.Keys(scan.IndexFiles))
	isIndex := make(map[string]bool, len(dirs))
	for _, dir := range dirs {
		isIndex[scan.IndexFiles[dir]] = true
	}
	skip := slices.Concat(slices.Collect(maps.Values(scan.IndexFiles)), scan.Shadowed, scan.Beside,
		slices.Collect(maps.Keys(plan.Excluded)), slices.Collect(maps.Keys(plan.Rewritten)))
	slices.Sort(skip)
	skip = slices.Compact(skip)
	var contentFiles, pagesFiles []string
	for _, file := range skip {
		contentFiles = append(contentFiles, "! /"+globEscape(file))
		if plan.Rewritten[file] && (isIndex[file] || plan.Excluded[file]) {
			pagesFiles = append(pagesFiles, "! /"+globEscape(file))
		}
	}
	for _, ext := range OtherContentExts {
		contentFiles = append(contentFiles, "! **"+ext)
	}
	staticFiles := []string{"! **" + TemplateExt}
	for _, ext := range MarkdownExts {
		staticFiles = append(staticFiles, "! **"+ext)
	}

	out := []map[string]any{
		{"source": "content", "target": "content/docs", "files": contentFiles},
		{"source": l.SectionsDir, "target": "content/docs"},
	}
	if len(plan.Rewritten) > 0 {
		out = append(out, map[string]any{"source": l.PagesDir, "target": "content/docs", "files": pagesFiles})
	}
	for _, dir := range dirs {
		file := scan.IndexFiles[dir]
		source := path.Join("content", file)
		if plan.Rewritten[file] {
			source = filepath.Join(l.PagesDir, filepath.FromSlash(file))
		}
		out = append(out, map[string]any{
			"source": source,
			"target": path.Join("content/docs", dir, "_index"+path.Ext(file)),
		})
	}
	out = append(out, map[string]any{"source": "content", "target": "static/docs", "files": staticFiles})
	return out
}

// globEscape quotes the characters Hugo's mount file patterns treat as
// wildcards, so a pattern matches exactly one file name.
func globEscape(name string) string {
	var b strings.Builder
	for _, r := range name {
		if strings.ContainsRune(`\*?[]{}`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// LookupParam finds a theme parameter by name regardless of case, as Hugo
// does.
func LookupParam(params map[string]any, name string) any {
	for k, v := range params {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return nil
}

// WriteConfig writes cfg as JSON to file.
func WriteConfig(file string, cfg map[string]any) error {
	data, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return fmt.Errorf("encode hugo configuration: %w", err)
	}
	if err := os.WriteFile(file, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write hugo configuration: %w", err)
	}
	return nil
}

// linkOnlyOutputFormat is the one output of taxonomy and term pages in a
// unit's render: HTML, so the pages have their URLs for the unit's pages
// to link to, written by an empty template (layouts/*.linkonly.html) and
// discarded — the assembly renders those pages.
const linkOnlyOutputFormat = "linkonly"

// outputs is Hugo's outputs setting: the home page's formats, and in a
// unit's render the link-only format for taxonomies and terms.
func outputs(home []string, role Role) map[string]any {
	out := map[string]any{"home": home}
	if len(role.Units) > 0 {
		out["taxonomy"] = []string{linkOnlyOutputFormat}
		out["term"] = []string{linkOnlyOutputFormat}
	}
	return out
}
