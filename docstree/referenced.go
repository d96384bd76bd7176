package docstree

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/docweave/docweave/gitx"
	"github.com/docweave/docweave/internal/mdlinks"
	"github.com/docweave/docweave/internal/pathsafe"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/report"
)

// A page often shows a file that the documentation roots do not publish:
// an image in a folder outside them (../../assets/x.png, /assets/x.png
// from the repository's root) or in a hidden folder inside them (GitBook
// keeps every image in .gitbook/assets, and hidden files are never
// published). Such files are referenced files: the clone stage checks
// them out too, and the tree holds each at FilesDir/<its repository path>
// (see ReferencedRel), where the site finds it for the page's link.

// FilesDir is the folder of a tree that holds the referenced files; a
// repository's are published at /docs/<repository>/_files/ (with
// versions, /docs/<repository>/<version>/_files/).
const FilesDir = "_files"

// CollectDocs is CollectDocsWith without referenced files.
func CollectDocs(repoDir string, roots []string, policy Policy) ([]artifact.File, []report.Issue, error) {
	return CollectDocsWith(repoDir, roots, nil, policy)
}

// ReferencedRel is where the tree holds the referenced file at repoPath
// (a clean slash path from the repository's root): FilesDir/repoPath with
// an underscore put before every segment that starts with a dot or an
// underscore, so nothing of it is hidden (.gitbook becomes _.gitbook) and
// no two repository paths share a place (_x becomes __x).
func ReferencedRel(repoPath string) string {
	parts := strings.Split(repoPath, "/")
	for i, p := range parts {
		if strings.HasPrefix(p, ".") || strings.HasPrefix(p, "_") {
			parts[i] = "_" + p
		}
	}
	return FilesDir + "/" + strings.Join(parts, "/")
}

// Referenced lists the repository paths of the files the pages under the
// documentation roots of the checkout at repoDir link to or show and that
// the roots would not publish: not pages, and outside every root or in a
// hidden folder (or hidden themselves) inside one. The paths stay inside
// the repository (a reference that climbs above its root names nothing)
// and never enter .git; whether each names a file of the commit is for the
// checkout to find out. Pages over the page size limit are not read, nor
// pages reached through a symbolic link.
func Referenced(repoDir string, roots []string, policy Policy) []string {
	clean := make([]string, 0, len(roots))
	for _, r := range roots {
		clean = append(clean, path.Clean(strings.Trim(r, "/")))
	}
	seen := map[string]bool{}
	for _, root := range clean {
		rootDir := filepath.Join(repoDir, filepath.FromSlash(root))
		_ = filepath.WalkDir(rootDir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // a missing root is CollectDocs' to report
			}
			if d.IsDir() {
				if pathsafe.IsDotGit(d.Name()) {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() || !isPage(d.Name()) {
				return nil
			}
			rel, err := filepath.Rel(repoDir, p)
			if err != nil {
				return nil
			}
			for _, target := range pageReferences(p, filepath.ToSlash(rel), clean, policy) {
				seen[target] = true
			}
			return nil
		})
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// pageReferences are the referenced files of the page at file (page its
// repository path).
func pageReferences(file, page string, roots []string, policy Policy) []string {
	if st, err := os.Stat(file); err != nil || (policy.Limits.MaxPageBytes > 0 && st.Size() > int64(policy.Limits.MaxPageBytes)) {
		return nil
	}
	body, err := os.ReadFile(file)
	if err != nil || !mayReference(body) {
		return nil
	}
	var out []string
	for _, l := range mdlinks.Find(body) {
		if c, ok := originalFile(l.Dest, policy.OriginalSite); ok {
			if inRepository(c) && referencedFile(c, roots) {
				out = append(out, c)
			}
			continue
		}
		if !mdlinks.Internal(l.Dest) {
			continue
		}
		p := mdlinks.Path(l.Dest)
		if rest, ok := strings.CutPrefix(p, SiteAlias); ok {
			// Docusaurus' @site/ is the site's folder, which holds the
			// docusaurus.config file wherever it is in the repository:
			// read as rooted at any folder, as the site reads it.
			p = "/" + rest
		}
		for _, c := range ReferenceCandidates(page, p, roots) {
			if referencedFile(c, roots) {
				out = append(out, c)
			}
		}
		if abs := strings.TrimPrefix(path.Clean(p), "/"); strings.HasPrefix(p, "/") && inRepository(abs) && referencedFile(abs, roots) {
			out = append(out, gitx.AnyFolder+abs)
		}
	}
	return out
}

// SiteAlias starts a Docusaurus path from the site's folder
// (@site/static/img/x.png): the clone and the site read it as a rooted
// path (/static/img/x.png).
const SiteAlias = "@site/"

// ReferenceCandidates are the repository paths that the link path p (as
// mdlinks.Path reads it), written on page (a repository path), may name:
// a relative p from the page's folder; a rooted one from the repository's
// root or from a documentation root (GitBook's reading). None climbs above
// the repository's root or enters .git. The site asks the same question
// to find where a referenced file is published.
func ReferenceCandidates(page, p string, roots []string) []string {
	if p == "" {
		return nil
	}
	if !strings.HasPrefix(p, "/") {
		if c := path.Join(path.Dir(page), p); inRepository(c) {
			return []string{c}
		}
		return nil
	}
	abs := strings.TrimPrefix(path.Clean(p), "/")
	out := []string{abs}
	for _, r := range roots {
		if r = path.Clean(strings.Trim(r, "/")); r != "." {
			out = append(out, path.Join(r, abs))
		}
	}
	return slices.DeleteFunc(out, func(c string) bool { return !inRepository(c) })
}

// inRepository reports whether a cleaned path stays below the repository's
// root and outside .git.
func inRepository(c string) bool {
	if c == "." || c == "" || c == ".." || strings.HasPrefix(c, "../") || strings.HasPrefix(c, "/") {
		return false
	}
	for _, part := range strings.Split(c, "/") {
		if pathsafe.IsDotGit(part) || pathsafe.Name(part) != "" {
			return false
		}
	}
	return true
}

// referencedFile reports whether the repository path c, a link target,
// is a file the documentation roots would not publish.
func referencedFile(c string, roots []string) bool {
	if isPage(c) {
		return false
	}
	for _, r := range roots {
		rest, ok := c, r == "."
		if !ok {
			rest, ok = strings.CutPrefix(c, r+"/")
		}
		if ok && !hidden(rest) {
			return false
		}
	}
	return true
}

// hidden reports whether a slash path has a segment starting with a dot.
func hidden(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if strings.HasPrefix(part, ".") {
			return true
		}
	}
	return false
}

// collectReferenced adds the referenced files at repoPaths to the tree,
// each at ReferencedRel, under the rules of every other file: no name that
// cannot be written safely, no symbolic link anywhere on its way, nothing
// in .git, and the size limits and, for an untrusted repository, the
// file-type rules of the policy.
func (c *collector) collectReferenced(repoPaths []string) error {
	for _, p := range repoPaths {
		if !inRepository(p) {
			continue
		}
		full := filepath.Join(c.repoDir, filepath.FromSlash(p))
		st, err := os.Lstat(full)
		if err != nil || !st.Mode().IsRegular() {
			continue // not checked out (the commit has no such file)
		}
		real, err := filepath.EvalSymlinks(full)
		if err != nil || real != filepath.Join(c.repoReal, filepath.FromSlash(p)) {
			c.issue(report.CodeSymlinkEscape, p, "referenced file %s is reached through a symbolic link; not published", pathsafe.Shown(p))
			continue
		}
		rel := ReferencedRel(p)
		if _, dup := c.taken[rel]; dup {
			c.issue(report.CodeDuplicatePath, p, "%s is also a file of the documentation; the referenced file %s is not published there", rel, pathsafe.Shown(p))
			continue
		}
		if !c.admit(rel, p, full, st.Size()) {
			continue
		}
		c.taken[rel] = p
		c.files = append(c.files, artifact.File{Rel: rel, Source: full})
		if err := c.checkTotals(p); err != nil {
			return err
		}
	}
	return nil
}

// mayReference is a cheap test on a page's bytes, before it is parsed:
// only a page with a Markdown link or image, or a source attribute of raw
// HTML, can reference a file.
func mayReference(body []byte) bool {
	for _, mark := range []string{"](", "]:", "src", "SRC"} {
		if bytes.Contains(body, []byte(mark)) {
			return true
		}
	}
	return false
}
