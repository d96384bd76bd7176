package docstree

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/pathsafe"
	"github.com/docweave/docweave/internal/words"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/report"
)

// Policy is what a repository may publish: its input limits, and whether
// it is trusted with files a browser runs as documents.
type Policy struct {
	// Limits bound files, pages and the whole tree; a zero field means no
	// limit (configurations always set them, see config.InputLimits).
	Limits config.InputLimits
	// Untrusted leaves out HTML, SVG and XML files (see ActiveContent).
	Untrusted bool
	// OriginalSite is the repository's original site: a page's link to
	// one of its URLs names the file of the folder it publishes
	// (originalsite.go).
	OriginalSite config.OriginalSite
}

// PolicyFor is the policy the configuration sets for a repository.
func PolicyFor(cfg *config.Config, repo config.Repository) Policy {
	return Policy{Limits: cfg.Build.Limits, Untrusted: !repo.IsTrusted(), OriginalSite: repo.OriginalSite}
}

// TooLargeError is a repository that is over a limit as a whole (too many
// files or bytes): it is skipped, never stored. Issue says why, for the
// report.
type TooLargeError struct {
	Issue report.Issue
}

func (e *TooLargeError) Error() string { return e.Issue.Message }

// CollectDocsWith lists the files under each documentation root of a checkout,
// merged into one tree (a file's path is relative to its root; when two
// roots hold the same path the first root wins). A repository is untrusted
// input, so .git is never read; a symbolic link is followed only to a
// regular file inside the documentation roots and outside any .git; names
// that could not be written safely, files over the size limits and, for an
// untrusted repository, active documents are left out — each such case is
// an issue, not an error. A repository over the file-count or total-size
// limit returns a *TooLargeError as soon as the walk finds it, before any
// file is read. The referenced files at the repository paths referenced
// (see Referenced) are added at their ReferencedRel.
func CollectDocsWith(repoDir string, roots, referenced []string, policy Policy) ([]artifact.File, []report.Issue, error) {
	repoReal, err := filepath.EvalSymlinks(repoDir)
	if err != nil {
		return nil, nil, err
	}
	c := &collector{repoDir: repoDir, repoReal: repoReal, policy: policy, taken: map[string]string{}}
	// Every root is resolved before any is walked, because a link in one
	// root may point into another.
	dirs := make([]string, len(roots))
	for i, root := range roots {
		dirs[i] = c.resolveRoot(root)
	}
	for i, root := range roots {
		if dirs[i] == "" {
			continue
		}
		if err := c.collectRoot(root, dirs[i]); err != nil {
			return nil, nil, err
		}
	}
	if err := c.collectReferenced(referenced); err != nil {
		return nil, nil, err
	}
	if len(c.files) == 0 {
		c.issues = append(c.issues, report.Issue{Code: report.CodeNoDocs,
			Message: fmt.Sprintf("no documentation files found under %v", roots)})
	} else {
		c.files = append(c.files, toolConfigs(repoDir)...)
	}
	c.issues = append(c.issues, c.tools.bookIgnoreIssues()...)
	sort.Slice(c.files, func(i, j int) bool { return c.files[i].Rel < c.files[j].Rel })
	return c.files, c.issues, nil
}

// collector is the state of one CollectDocs call.
type collector struct {
	repoDir, repoReal string
	policy            Policy
	// rootsReal are the resolved documentation roots; links may point
	// into any of them.
	rootsReal  []string
	files      []artifact.File
	issues     []report.Issue
	taken      map[string]string
	totalBytes int64
	// hugoRoots caches, per directory, whether it is a Hugo project root
	// (see hugofiles.go).
	hugoRoots map[string]bool
	// tools is what the checkout says of other tools' files (see
	// othertools.go), read at the first entry walked.
	tools *otherTools
}

func (c *collector) issue(code, repoRel, format string, args ...any) {
	c.issues = append(c.issues, report.Issue{Code: code, Path: pathsafe.Shown(repoRel), Message: fmt.Sprintf(format, args...)})
}

// resolveRoot checks a documentation root and returns its directory in
// the checkout, or "" (with an issue) when it is not a directory inside
// the repository, outside .git.
func (c *collector) resolveRoot(root string) string {
	rootDir := filepath.Join(c.repoDir, filepath.FromSlash(path.Clean(root)))
	info, err := os.Lstat(rootDir)
	if err != nil || !info.IsDir() {
		c.issue(report.CodeDocsPathMissing, root, "documentation root %q is not a directory in the repository", root)
		return ""
	}
	rootReal, err := filepath.EvalSymlinks(rootDir)
	if err != nil || !within(c.repoReal, rootReal) || inGitDir(c.repoReal, rootReal) {
		c.issue(report.CodeSymlinkEscape, root, "documentation root %q leads outside the repository or into .git through a symbolic link; not collected", root)
		return ""
	}
	c.rootsReal = append(c.rootsReal, rootReal)
	return rootDir
}

// collectRoot walks one documentation root.
func (c *collector) collectRoot(root, rootDir string) error {
	err := filepath.WalkDir(rootDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == rootDir {
			return nil
		}
		return c.visit(root, rootDir, p, d)
	})
	if err != nil {
		var tooLarge *TooLargeError
		if errors.As(err, &tooLarge) {
			return err
		}
		return fmt.Errorf("walk %s: %w", root, err)
	}
	return nil
}

// visit decides about one entry of a root's walk.
func (c *collector) visit(root, rootDir, p string, d fs.DirEntry) error {
	rel, _ := filepath.Rel(rootDir, p)
	rel = filepath.ToSlash(rel)
	repoRel, _ := filepath.Rel(c.repoDir, p)
	repoRel = filepath.ToSlash(repoRel)
	if d.IsDir() && p == filepath.Join(c.repoDir, ".git") {
		return filepath.SkipDir // the checkout's own metadata
	}
	if skip, err := c.otherToolFile(rootDir, p, rel, repoRel, d); skip {
		return err
	}
	if why := pathsafe.Name(d.Name()); why != "" {
		c.issue(report.CodeUnsafePath, repoRel, "%s cannot be published safely (%s); left out", pathsafe.Shown(repoRel), why)
		if d.IsDir() {
			return filepath.SkipDir
		}
		return nil
	}
	if skip, err := c.hugoFile(p, repoRel, d); skip {
		return err
	}
	if d.IsDir() {
		return nil
	}
	source := p
	if d.Type()&fs.ModeSymlink != 0 {
		target, ok := c.followLink(p, repoRel)
		if !ok {
			return nil
		}
		source = target
	} else if !d.Type().IsRegular() {
		return nil
	}
	if first, dup := c.taken[rel]; dup {
		c.issue(report.CodeDuplicatePath, repoRel, "%s is also provided by root %q; the first root wins", rel, first)
		return nil
	}
	st, err := os.Stat(source)
	if err != nil {
		return err
	}
	if !c.admit(rel, repoRel, source, st.Size()) {
		return nil
	}
	c.taken[rel] = root
	c.files = append(c.files, artifact.File{Rel: rel, Source: source})
	return c.checkTotals(repoRel)
}

// hugoFile leaves out, with an issue, an entry Hugo would run or read as
// site configuration (see hugofiles.go): it returns true, and SkipDir for
// a directory, when the entry is left out.
func (c *collector) hugoFile(p, repoRel string, d fs.DirEntry) (bool, error) {
	if !d.IsDir() && isTemplateFile(d.Name()) {
		c.issue(report.CodeHugoFileIgnored, repoRel, "%s is a Go template, which Hugo would run (as a content adapter when named _content.gotmpl); nothing in a repository runs, so it is left out", pathsafe.Shown(repoRel))
		return true, nil
	}
	if !slices.Contains(hugoOwnedNames, d.Name()) {
		return false, nil
	}
	parent := filepath.Dir(p)
	isRoot, known := c.hugoRoots[parent]
	if !known {
		isRoot = isHugoProjectRoot(parent)
		if c.hugoRoots == nil {
			c.hugoRoots = map[string]bool{}
		}
		c.hugoRoots[parent] = isRoot
	}
	if !isRoot {
		return false, nil
	}
	project := path.Dir(repoRel)
	if project == "." {
		project = "the repository's root"
	}
	if d.IsDir() {
		c.issue(report.CodeHugoFileIgnored, repoRel, "%s/ (%s) belongs to the Hugo project at %s (its templates, data, assets or configuration), not to its documentation; docweave renders with its own theme and settings, so it is left out", pathsafe.Shown(repoRel), words.Plural(countFiles(p), "file"), pathsafe.Shown(project))
		return true, filepath.SkipDir
	}
	c.issue(report.CodeHugoFileIgnored, repoRel, "%s belongs to the Hugo project at %s (its configuration or modules), not to its documentation; docweave renders with its own theme and settings, so it is left out", pathsafe.Shown(repoRel), pathsafe.Shown(project))
	return true, nil
}

// followLink resolves a symbolic link and says whether its target may be
// published: a regular file inside a documentation root, outside .git.
func (c *collector) followLink(p, repoRel string) (string, bool) {
	target, err := filepath.EvalSymlinks(p)
	switch {
	case err != nil:
		c.issue(report.CodeSymlinkEscape, repoRel, "symbolic link %s does not resolve; not followed", repoRel)
		return "", false
	case !within(c.repoReal, target):
		c.issue(report.CodeSymlinkEscape, repoRel, "symbolic link %s points outside the repository; not copied", repoRel)
		return "", false
	case inGitDir(c.repoReal, target):
		c.issue(report.CodeSymlinkEscape, repoRel, "symbolic link %s points into .git; not copied", repoRel)
		return "", false
	case !c.inRoots(target):
		c.issue(report.CodeSymlinkEscape, repoRel, "symbolic link %s points outside the documentation roots; not copied (add the target's directory to paths, or replace the link by the file)", repoRel)
		return "", false
	}
	st, err := os.Stat(target)
	if err != nil || !st.Mode().IsRegular() {
		c.issue(report.CodeSymlinkEscape, repoRel, "symbolic link %s does not point to a regular file; not followed", repoRel)
		return "", false
	}
	return target, true
}

// admit applies the per-file rules: size limits and, for an untrusted
// repository, no active documents.
func (c *collector) admit(rel, repoRel, source string, size int64) bool {
	lim := c.policy.Limits
	if isPage(rel) && lim.MaxPageBytes > 0 && size > int64(lim.MaxPageBytes) {
		c.issue(report.CodePageTooLarge, repoRel, "page %s has %d bytes, more than build.limits.max_page_bytes (%d); not rendered", repoRel, size, lim.MaxPageBytes)
		return false
	}
	if lim.MaxFileBytes > 0 && size > int64(lim.MaxFileBytes) {
		c.issue(report.CodeFileTooLarge, repoRel, "file %s has %d bytes, more than build.limits.max_file_bytes (%d); not published", repoRel, size, lim.MaxFileBytes)
		return false
	}
	if c.policy.Untrusted {
		active, err := ActiveContent(source)
		if err != nil || active != "" {
			kind := active
			if err != nil {
				kind = "unreadable"
			}
			c.issue(report.CodeUntrustedFile, repoRel, "file %s is an active document (%s) and the repository is not trusted (repositories[].trusted: false); not published", repoRel, kind)
			return false
		}
	}
	c.totalBytes += size
	return true
}

// checkTotals refuses the repository once it holds more files or bytes
// than its limits allow.
func (c *collector) checkTotals(repoRel string) error {
	lim := c.policy.Limits
	if lim.MaxFiles > 0 && len(c.files) > lim.MaxFiles {
		return &TooLargeError{Issue: report.Issue{Code: report.CodeRepositoryTooLarge, Severity: report.SeverityError,
			Message: fmt.Sprintf("the documentation has more than build.limits.max_files (%d) files; repository skipped", lim.MaxFiles)}}
	}
	if lim.MaxTotalBytes > 0 && c.totalBytes > int64(lim.MaxTotalBytes) {
		return &TooLargeError{Issue: report.Issue{Code: report.CodeRepositoryTooLarge, Severity: report.SeverityError,
			Message: fmt.Sprintf("the documentation has more than build.limits.max_total_bytes (%d) bytes (reached at %s); repository skipped", lim.MaxTotalBytes, pathsafe.Shown(repoRel))}}
	}
	return nil
}

// inRoots reports whether target lies in one of the documentation roots.
func (c *collector) inRoots(target string) bool {
	for _, r := range c.rootsReal {
		if within(r, target) {
			return true
		}
	}
	return false
}

// within reports whether target is base or below it.
func within(base, target string) bool {
	rel, err := filepath.Rel(base, target)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// inGitDir reports whether target lies in a .git directory (in any
// spelling) of the repository at repoReal.
func inGitDir(repoReal, target string) bool {
	rel, err := filepath.Rel(repoReal, target)
	if err != nil {
		return false
	}
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if pathsafe.IsDotGit(part) {
			return true
		}
	}
	return false
}
