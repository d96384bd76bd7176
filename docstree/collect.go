package docstree

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/report"
)

// CollectDocs lists the files under each documentation root of a checkout,
// merged into one tree (a file's path is relative to its root; when two
// roots hold the same path the first root wins). A repository is untrusted
// input, so .git is never read, symbolic links that point outside the
// repository are refused, links to directories are not followed, and names
// that could not be written safely are left out — each such case is an
// issue, not an error.
func CollectDocs(repoDir string, roots []string) ([]artifact.File, []report.Issue, error) {
	repoReal, err := filepath.EvalSymlinks(repoDir)
	if err != nil {
		return nil, nil, err
	}
	var files []artifact.File
	var issues []report.Issue
	taken := map[string]string{}
	for _, root := range roots {
		rootDir := filepath.Join(repoDir, filepath.FromSlash(path.Clean(root)))
		info, err := os.Lstat(rootDir)
		if err != nil || !info.IsDir() {
			issues = append(issues, report.Issue{Code: report.CodeDocsPathMissing, Path: root,
				Message: fmt.Sprintf("documentation root %q is not a directory in the repository", root)})
			continue
		}
		err = filepath.WalkDir(rootDir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(rootDir, p)
			rel = filepath.ToSlash(rel)
			repoRel, _ := filepath.Rel(repoDir, p)
			repoRel = filepath.ToSlash(repoRel)
			if d.Name() == ".git" {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				return nil
			}
			source := p
			if d.Type()&fs.ModeSymlink != 0 {
				target, err := filepath.EvalSymlinks(p)
				if err != nil || !within(repoReal, target) {
					issues = append(issues, report.Issue{Code: report.CodeSymlinkEscape, Path: repoRel,
						Message: fmt.Sprintf("symbolic link %s points outside the repository; not copied", repoRel)})
					return nil
				}
				st, err := os.Stat(target)
				if err != nil || !st.Mode().IsRegular() {
					issues = append(issues, report.Issue{Code: report.CodeSymlinkEscape, Path: repoRel,
						Message: fmt.Sprintf("symbolic link %s does not point to a regular file; not followed", repoRel)})
					return nil
				}
				source = target
			} else if !d.Type().IsRegular() {
				return nil
			}
			if !artifact.SafeRel(rel) {
				issues = append(issues, report.Issue{Code: report.CodeUnsafePath, Path: repoRel,
					Message: fmt.Sprintf("file name %q cannot be published safely; left out", repoRel)})
				return nil
			}
			if first, dup := taken[rel]; dup {
				issues = append(issues, report.Issue{Code: report.CodeDuplicatePath, Path: repoRel,
					Message: fmt.Sprintf("%s is also provided by root %q; the first root wins", rel, first)})
				return nil
			}
			taken[rel] = root
			files = append(files, artifact.File{Rel: rel, Source: source})
			return nil
		})
		if err != nil {
			return nil, nil, fmt.Errorf("walk %s: %w", root, err)
		}
	}
	if len(files) == 0 {
		issues = append(issues, report.Issue{Code: report.CodeNoDocs,
			Message: fmt.Sprintf("no documentation files found under %v", roots)})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Rel < files[j].Rel })
	return files, issues, nil
}

// within reports whether target is base or below it.
func within(base, target string) bool {
	rel, err := filepath.Rel(base, target)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
