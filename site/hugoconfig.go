package site

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/docweave/docweave/site/theme"
)

// searchOutputFormat is the name of the home page's output format that
// writes /search/index.json.
const searchOutputFormat = "searchindex"

// defaultTaxonomies apply when the configuration names none, as in the spec.
var defaultTaxonomies = map[string]string{"tag": "tags", "category": "categories"}

// hugoConfig builds the Hugo site configuration for one render. It is a
// plain map written as JSON, so the file in .docweave/hugo.json shows an
// operator exactly what Hugo was told.
func hugoConfig(opts Options, l projectLayout, scan contentScan) map[string]any {
	g := opts.Generator
	title := g.Title
	if title == "" {
		title = "Documentation"
	}

	params := map[string]any{}
	maps.Copy(params, g.Params)
	if g.Description != "" {
		params["description"] = g.Description
	}
	repos := make([]map[string]any, 0, len(opts.Repositories))
	for _, r := range opts.Repositories {
		repos = append(repos, map[string]any{"name": r.Name, "forge": r.Forge, "path": r.ContentPath})
	}
	params[reservedParam] = map[string]any{"repositories": repos}

	taxonomies := g.Taxonomies
	if len(taxonomies) == 0 {
		taxonomies = defaultTaxonomies
	}

	homeOutputs := []string{"html"}
	if disabled, _ := lookupParam(g.Params, "disableSearch").(bool); !disabled {
		homeOutputs = append(homeOutputs, searchOutputFormat)
	}

	return map[string]any{
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
		// Feeds, sitemaps and robots.txt are not part of this theme.
		"disableKinds": []string{"rss", "sitemap", "robotstxt"},
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
		},
		"outputs": map[string]any{"home": homeOutputs},
		"module":  map[string]any{"mounts": mounts(l, scan)},
		// Nothing at render time may reach the network, run a program or
		// read the environment, whatever a repository's Markdown asks for.
		"security": map[string]any{
			"exec":  map[string]any{"allow": []string{"none"}, "osEnv": []string{"none"}},
			"funcs": map[string]any{"getenv": []string{"none"}},
			"http":  map[string]any{"urls": []string{"none"}},
		},
	}
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
func mounts(l projectLayout, scan contentScan) []map[string]any {
	var contentFiles []string
	dirs := slices.Sorted(maps.Keys(scan.IndexFiles))
	for _, dir := range dirs {
		contentFiles = append(contentFiles, "! /"+scan.IndexFiles[dir])
	}
	for _, file := range scan.Shadowed {
		contentFiles = append(contentFiles, "! /"+file)
	}
	for _, ext := range otherContentExts {
		contentFiles = append(contentFiles, "! **"+ext)
	}
	var staticFiles []string
	for _, ext := range markdownExts {
		staticFiles = append(staticFiles, "! **"+ext)
	}

	out := []map[string]any{
		{"source": "content", "target": "content/docs", "files": contentFiles},
		{"source": l.SectionsDir, "target": "content/docs"},
	}
	for _, dir := range dirs {
		out = append(out, map[string]any{
			"source": path.Join("content", scan.IndexFiles[dir]),
			"target": path.Join("content/docs", dir, "_index"+path.Ext(scan.IndexFiles[dir])),
		})
	}
	out = append(out, map[string]any{"source": "content", "target": "static/docs", "files": staticFiles})
	return out
}

// lookupParam finds a theme parameter by name regardless of case, as Hugo
// does.
func lookupParam(params map[string]any, name string) any {
	for k, v := range params {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return nil
}

// writeHugoConfig writes cfg as JSON to file.
func writeHugoConfig(file string, cfg map[string]any) error {
	data, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return fmt.Errorf("encode hugo configuration: %w", err)
	}
	if err := os.WriteFile(file, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write hugo configuration: %w", err)
	}
	return nil
}
