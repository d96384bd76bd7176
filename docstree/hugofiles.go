package docstree

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// A repository's documentation is placed under the Hugo project's
// content/<unit>/ directory, and nothing in it may run or configure the
// site. Hugo 0.165 reads content/ this way (hugolib/pages_capture.go,
// common/paths/pathparser.go):
//
//   - Markdown files are pages; their front matter is checked by the site
//     package (url, aliases, cascade, sites, outputs, layout, type).
//   - A file named _content.gotmpl (in any case) is a content adapter: a Go
//     template Hugo executes to make pages, which can call partials,
//     shortcodes and functions. Other .gotmpl files are templates too, and
//     no documentation. Every .gotmpl file is left out.
//   - Everything else is a file, published as it is. A hugo.toml, a
//     layouts/ directory or a go.mod inside content/ is never read as
//     configuration, templates or a module: Hugo reads those only at the
//     project's root, which is docweave's own.
//
// So the only files that could run are content adapters. A documentation
// root that is itself a Hugo project (a site or a theme) still holds files
// that are not documentation but Hugo's input: its configuration, its
// templates, its data and its asset pipeline. Published as files they
// would show a site's internals as pages of the documentation, so they are
// left out too — at a Hugo project root only: elsewhere a directory
// called layouts/ or data/ is an ordinary part of the documentation.

// hugoConfigNames are the file names that make a directory a Hugo project
// root on their own: Hugo's site configuration, a theme's manifest, a
// Hugo modules workspace.
var hugoConfigNames = []string{"hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json", "theme.toml", "hugo.work"}

// legacyConfigNames are the configuration names Hugo also reads; they make
// a Hugo project root only beside a content/ directory and one of Hugo's
// template directories, since a config.yaml is as likely an example in
// the documentation.
var legacyConfigNames = []string{"config.toml", "config.yaml", "config.yml", "config.json"}

// hugoTemplateDirs are the directories that, beside a legacy
// configuration file and content/, mark a Hugo project root.
var hugoTemplateDirs = []string{"layouts", "archetypes", "themes"}

// hugoOwnedNames are the entries of a Hugo project root that are Hugo's
// input rather than documentation: configuration files and directories,
// module and npm files, templates, archetypes, translations of the
// theme's strings, data files, Hugo Pipes' assets, themes and generated
// resources. content/ (the pages) and static/ (files published as they
// are) are documentation and stay.
var hugoOwnedNames = slices.Concat(hugoConfigNames, legacyConfigNames, []string{
	"config", "go.mod", "go.sum", "go.work", "go.work.sum", "package.json", "package.hugo.json", "package-lock.json",
	"hugo_stats.json", ".hugo_build.lock",
	"layouts", "archetypes", "i18n", "data", "assets", "themes", "resources",
})

// isTemplateFile reports whether name is a Go template file Hugo could
// execute: a content adapter (_content.gotmpl) or any other .gotmpl file.
func isTemplateFile(name string) bool {
	return strings.EqualFold(path.Ext(name), ".gotmpl")
}

// isHugoProjectRoot reports whether the directory dir is the root of a
// Hugo site or theme: it holds hugo.toml (or .yaml, .yml, .json),
// theme.toml or hugo.work, or a config.* file or config/_default/ beside
// content/ and layouts/, archetypes/ or themes/.
func isHugoProjectRoot(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	legacy, content, templates := false, false, false
	for _, e := range entries {
		name := e.Name()
		switch {
		case slices.Contains(hugoConfigNames, name) && !e.IsDir():
			return true
		case slices.Contains(legacyConfigNames, name) && !e.IsDir():
			legacy = true
		case name == "config" && e.IsDir():
			if st, err := os.Stat(filepath.Join(dir, name, "_default")); err == nil && st.IsDir() {
				legacy = true
			}
		case name == "content" && e.IsDir():
			content = true
		case slices.Contains(hugoTemplateDirs, name) && e.IsDir():
			templates = true
		}
	}
	return legacy && content && templates
}

// countFiles counts the files below dir (for the issue of a left-out
// directory); errors count as nothing.
func countFiles(dir string) int {
	n := 0
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}
