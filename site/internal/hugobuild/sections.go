package hugobuild

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docweave/docweave/site/internal/model"
	"github.com/docweave/docweave/site/internal/pages"
)

// Hugo only treats a nested directory as a section — a node of the menu
// with its own page — when it holds an _index file, and it treats a
// directory holding index.md as a "leaf bundle" whose other Markdown files
// are not rendered at all. Repositories' documentation follows neither
// rule, so before each render the content tree is scanned and, without
// touching it, each directory gets its page:
//
//   - its own _index.md when it has one;
//   - else its index.md, mounted as its _index.md, so it becomes the
//     directory's page instead of turning the directory into a leaf bundle;
//   - else its README.md (any case), mounted the same way, as forges show
//     a directory's README as its page;
//   - else, when there is Markdown below it, a generated _index.md (title
//     only) under .docweave/sections, mounted onto the same place.
//
// An index.md beside an _index.md is left out (and reported), since the
// directory already has its page and Hugo would otherwise drop every other
// page of the directory. A README.md that is not its directory's page is an
// ordinary page.

// WalkContent lists contentDir. Hidden files and directories (".git",
// ".github") are skipped, as Hugo skips them.
func WalkContent(contentDir string) (pages.Tree, error) {
	var tree pages.Tree
	err := filepath.WalkDir(contentDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(contentDir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case d.IsDir():
			tree.Dirs = append(tree.Dirs, rel)
		case IsMarkdown(d.Name()):
			tree.Markdown = append(tree.Markdown, rel)
		default:
			tree.Files = append(tree.Files, rel)
		}
		return nil
	})
	if err != nil {
		return tree, fmt.Errorf("scan content %s: %w", contentDir, err)
	}
	return tree, nil
}

// ContentScan is what Render needs to know about the content tree.
type ContentScan struct {
	// Generated maps a content directory (slash path relative to content/,
	// "." for the root) to the title of its generated section page.
	Generated map[string]string
	// Weights gives some generated section pages their place among their
	// siblings, from the authors' navigation (package pages, sectionnav.go).
	Weights map[string]int
	// IndexFiles maps a content directory to the file mounted as its
	// _index.md: its index.md or README.md (slash path relative to
	// content/).
	IndexFiles map[string]string
	// Redirects maps the content path of each versioned repository to the
	// title of its generated root page, which leads to the default version
	// (see versionroots.go).
	Redirects map[string]string
	// Shadowed lists index.md files (slash paths relative to content/)
	// left out because their directory also holds an _index.md.
	Shadowed []string
	// Beside lists pages X.md (slash paths relative to content/) left out
	// because a directory X/ beside them has a page of its own (a
	// README.md, say) at the same URL; Hugo would write one over the
	// other. Where X/ has no page of its own, X.md becomes its page
	// (IndexFiles) instead.
	Beside []string
	// Markdown counts the Markdown files rendered.
	Markdown int
}

// ScanContent walks contentDir and plans its sections; see PlanContent.
func ScanContent(contentDir string, repos []model.Repository) (ContentScan, error) {
	tree, err := WalkContent(contentDir)
	if err != nil {
		return ContentScan{}, err
	}
	return PlanContent(tree, repos, nil), nil
}

// PlanContent decides, per directory, whether it gets a generated section
// page or a remounted index file. Files in excluded (pages that cannot
// render) are treated as absent.
func PlanContent(tree pages.Tree, repos []model.Repository, excluded map[string]bool) ContentScan {
	scan := ContentScan{Generated: map[string]string{}, IndexFiles: map[string]string{}, Redirects: map[string]string{}}
	type dirInfo struct {
		hasMarkdown bool   // the directory or one below it holds Markdown
		branchIndex bool   // it holds _index.md
		leafIndex   string // its index.md
		readme      string // its README.md
	}
	dirs := make(map[string]*dirInfo, len(tree.Dirs))
	for _, d := range tree.Dirs {
		dirs[d] = &dirInfo{}
	}
	for _, rel := range tree.Markdown {
		if excluded[rel] {
			continue
		}
		scan.Markdown++
		dir := path.Dir(rel)
		info := dirs[dir]
		if info == nil {
			info = &dirInfo{}
			dirs[dir] = info
		}
		base := path.Base(rel)
		switch strings.ToLower(strings.TrimSuffix(base, path.Ext(base))) {
		case "_index":
			info.branchIndex = true
		case "index":
			info.leafIndex = rel
		case "readme":
			if info.readme == "" || rel < info.readme {
				info.readme = rel
			}
		}
		for up := dir; ; up = path.Dir(up) {
			if dirs[up] == nil {
				dirs[up] = &dirInfo{}
			}
			dirs[up].hasMarkdown = true
			if up == "." {
				break
			}
		}
	}
	titles := SectionTitles(repos)
	roots := versionedRoots(repos)
	for dir, info := range dirs {
		if r, versioned := roots[dir]; versioned {
			// Only version directories below it: its page is the
			// redirect to the default version, whatever else is there.
			scan.Redirects[dir] = r.Name
			continue
		}
		switch {
		case info.branchIndex && info.leafIndex != "":
			scan.Shadowed = append(scan.Shadowed, info.leafIndex)
		case !info.hasMarkdown || info.branchIndex:
			// Nothing to render below it, or the repository wrote its own.
		case info.leafIndex != "":
			scan.IndexFiles[dir] = info.leafIndex
		case info.readme != "":
			scan.IndexFiles[dir] = info.readme
		default:
			scan.Generated[dir] = SectionTitle(dir, titles)
		}
	}
	sort.Strings(scan.Shadowed)
	for _, rel := range tree.Markdown {
		if excluded[rel] {
			continue
		}
		stem := strings.TrimSuffix(rel, path.Ext(rel))
		switch strings.ToLower(path.Base(stem)) {
		case "_index", "index", "readme":
			continue
		}
		d := dirs[stem]
		if d == nil || !d.hasMarkdown {
			continue
		}
		if _, generated := scan.Generated[stem]; generated {
			// The folder has no page of its own: the page beside it,
			// named as the folder, is its page (as MkDocs and forges
			// readers take it), rather than a generated list.
			delete(scan.Generated, stem)
			scan.IndexFiles[stem] = rel
			continue
		}
		scan.Beside = append(scan.Beside, rel)
	}
	sort.Strings(scan.Beside)
	return scan
}

// SectionTitles maps the content paths of repositories (and of their
// versions' roots) to their names and the forge directories above them to
// the forge names.
func SectionTitles(repos []model.Repository) map[string]string {
	titles := map[string]string{".": "Documentation"}
	for _, r := range repos {
		titles[r.ContentPath] = r.Name
		for _, v := range r.Versions {
			// A version's root reads like a non-versioned repository's:
			// titled after the repository; the version is in the
			// switcher and the breadcrumbs.
			titles[path.Join(r.ContentPath, v.Slug)] = r.Name
		}
		if r.Forge != "" {
			if parent := path.Dir(r.ContentPath); parent != "." {
				titles[parent] = r.Forge
			}
		}
	}
	return titles
}

// SectionTitle names a generated directory page: a repository by its name,
// a forge by its name, any other directory by its humanised name.
func SectionTitle(dir string, titles map[string]string) string {
	if t, ok := titles[dir]; ok {
		return t
	}
	return humanize(path.Base(dir))
}

// humanize turns a directory name such as "getting-started" into
// "Getting started".
func humanize(name string) string {
	s := strings.Join(strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || unicode.IsSpace(r) }), " ")
	if s == "" {
		return name
	}
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}

// WriteSections writes the generated section pages below sectionsDir, one
// <dir>/_index.md each, with JSON front matter holding the title (and the
// weight, when weights has one).
func WriteSections(sectionsDir string, generated map[string]string, weights map[string]int) error {
	if err := os.MkdirAll(sectionsDir, 0o755); err != nil {
		return fmt.Errorf("write section pages: %w", err)
	}
	dirs := make([]string, 0, len(generated))
	for d := range generated {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		fm := map[string]any{"title": generated[dir]}
		if w := weights[dir]; w != 0 {
			fm["weight"] = w
		}
		front, err := json.Marshal(fm)
		if err != nil {
			return fmt.Errorf("write section page for %s: %w", dir, err)
		}
		target := filepath.Join(sectionsDir, filepath.FromSlash(dir), "_index.md")
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return fmt.Errorf("write section page for %s: %w", dir, err)
		}
		if err := os.WriteFile(target, append(front, '\n'), 0o644); err != nil {
			return fmt.Errorf("write section page for %s: %w", dir, err)
		}
	}
	return nil
}

// FollowAuthorsNav names and places the generated section pages of scan
// as the authors' navigation says (pages.SectionNav: a GitBook summary's
// group, a MkDocs nav section, a Docusaurus category), instead of by the
// folder's name. The pages of repositories, versions and forges keep
// theirs.
func FollowAuthorsNav(scan *ContentScan, nav map[string]pages.SectionNav, repos []model.Repository) {
	fixed := SectionTitles(repos)
	for dir := range scan.Generated {
		n, ok := nav[dir]
		if _, own := fixed[dir]; !ok || own {
			continue
		}
		if n.Title != "" {
			scan.Generated[dir] = n.Title
		}
		if n.Weight != 0 {
			if scan.Weights == nil {
				scan.Weights = map[string]int{}
			}
			scan.Weights[dir] = n.Weight
		}
	}
}
