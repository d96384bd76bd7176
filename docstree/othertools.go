package docstree

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"go.yaml.in/yaml/v3"

	"github.com/docweave/docweave/internal/pathsafe"
	"github.com/docweave/docweave/internal/words"
	"github.com/docweave/docweave/report"
)

// Documentation written for other tools carries files that are those
// tools' input, not documentation, and that docweave would otherwise
// publish as pages or files:
//
//   - GitBook's .bookignore lists, gitignore-style and relative to the
//     space's root, what the book leaves out (nats-io/nats.docs: _book/,
//     docs/, building_the_book.md). A .bookignore at the top of a
//     documentation root is honoured for that root: what it matches is not
//     collected, reported once per .bookignore with the number left out.
//   - A theme's templates: MkDocs' theme.custom_dir (read from mkdocs.yml
//     at the repository's root) wherever it lies, the conventional
//     overrides/ directory of an MkDocs repository, and the _layouts/
//     directory of GitBook (and Jekyll), both at the top of a
//     documentation root. docweave renders with its own theme, so each
//     such directory is left out, one TOOL_FILE_IGNORED issue per
//     directory. overrides/ and _layouts/ that hold Markdown are
//     documentation that happens to be called so, and stay.

// BookIgnoreName is GitBook's ignore file.
const BookIgnoreName = ".bookignore"

// maxBookIgnoreBytes bounds the part of a .bookignore read: a list of
// patterns, not content.
const maxBookIgnoreBytes = 64 << 10

// otherTools is what one CollectDocs call knows of other tools' files.
type otherTools struct {
	// mkdocs is whether the repository has an mkdocs.yml at its root;
	// customDir is its theme.custom_dir as a repository path ("" when
	// none).
	mkdocs    bool
	customDir string
	// ignores are the .bookignore files of the roots walked, by root
	// directory, nil for a root without one.
	ignores map[string]*bookIgnore
	order   []*bookIgnore
}

// bookIgnore is one .bookignore and what it left out.
type bookIgnore struct {
	repoRel string
	matcher gitignore.Matcher
	// files counts the files left out (those in directories left out
	// included), dirs the directories left out as a whole.
	files, dirs  int
	patternCount int
}

// newOtherTools reads what the checkout at repoDir says of other tools.
func newOtherTools(repoDir string) *otherTools {
	t := &otherTools{ignores: map[string]*bookIgnore{}}
	for _, name := range []string{"mkdocs.yml", "mkdocs.yaml"} {
		data, ok := readSmallFile(filepath.Join(repoDir, name), maxToolConfigBytes)
		if !ok {
			continue
		}
		t.mkdocs = true
		t.customDir = mkdocsCustomDir(data)
		break
	}
	return t
}

// mkdocsCustomDir returns theme.custom_dir of an mkdocs.yml as a clean
// repository path, or "" when it has none or names a path outside the
// repository. The file is read as a YAML tree, so MkDocs' Python tags
// (!!python/name:…) are no error.
func mkdocsCustomDir(data []byte) string {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return ""
	}
	theme := mappingValue(doc.Content[0], "theme")
	dir := mappingValue(theme, "custom_dir")
	if dir == nil || dir.Kind != yaml.ScalarNode || strings.TrimSpace(dir.Value) == "" {
		return ""
	}
	clean := path.Clean(strings.TrimSpace(dir.Value))
	if path.IsAbs(clean) || clean == "." || clean == ".." || strings.HasPrefix(clean, "../") {
		return ""
	}
	return clean
}

// mappingValue returns the value of key in the YAML mapping m, or nil.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// readSmallFile reads a regular file (never through a link) of at most
// limit bytes.
func readSmallFile(p string, limit int64) ([]byte, bool) {
	info, err := os.Lstat(p)
	if err != nil || !info.Mode().IsRegular() || info.Size() > limit {
		return nil, false
	}
	data, err := os.ReadFile(p)
	return data, err == nil
}

// bookIgnoreOf returns the .bookignore of the documentation root at
// rootDir, read once, or nil.
func (t *otherTools) bookIgnoreOf(repoDir, rootDir string) *bookIgnore {
	if b, known := t.ignores[rootDir]; known {
		return b
	}
	b := readBookIgnore(repoDir, rootDir)
	t.ignores[rootDir] = b
	if b != nil {
		t.order = append(t.order, b)
	}
	return b
}

// readBookIgnore parses the .bookignore at the top of rootDir: a regular
// file, its first maxBookIgnoreBytes read, one gitignore pattern a line
// (blank lines and # comments skipped).
func readBookIgnore(repoDir, rootDir string) *bookIgnore {
	p := filepath.Join(rootDir, BookIgnoreName)
	info, err := os.Lstat(p)
	if err != nil || !info.Mode().IsRegular() {
		return nil
	}
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	var patterns []gitignore.Pattern
	sc := bufio.NewScanner(io.LimitReader(f, maxBookIgnoreBytes))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \t\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		patterns = append(patterns, gitignore.ParsePattern(line, nil))
	}
	if len(patterns) == 0 {
		return nil
	}
	repoRel, _ := filepath.Rel(repoDir, p)
	return &bookIgnore{repoRel: filepath.ToSlash(repoRel), matcher: gitignore.NewMatcher(patterns), patternCount: len(patterns)}
}

// otherToolFile leaves out an entry of a root's walk that another tool's
// configuration ignores or that is another tool's template: it returns
// true, and SkipDir for a directory, when the entry is left out. rel is
// the entry's path below the root, repoRel its repository path.
func (c *collector) otherToolFile(rootDir, p, rel, repoRel string, d fs.DirEntry) (bool, error) {
	if c.tools == nil {
		c.tools = newOtherTools(c.repoDir)
	}
	skip := func() (bool, error) {
		if d.IsDir() {
			return true, filepath.SkipDir
		}
		return true, nil
	}
	if b := c.tools.bookIgnoreOf(c.repoDir, rootDir); b != nil && b.matcher.Match(strings.Split(rel, "/"), d.IsDir()) {
		if d.IsDir() {
			b.dirs++
			b.files += countFiles(p)
		} else {
			b.files++
		}
		return skip()
	}
	if !d.IsDir() {
		return false, nil
	}
	var why string
	switch {
	case c.tools.customDir != "" && repoRel == c.tools.customDir:
		why = "is the MkDocs theme's custom_dir (theme.custom_dir in mkdocs.yml): templates of MkDocs' theme"
	case rel == "overrides" && c.tools.mkdocs && !holdsMarkdown(p):
		why = "is an MkDocs theme's overrides directory (templates and assets of MkDocs' theme, no Markdown)"
	case rel == "_layouts" && !holdsMarkdown(p):
		why = "holds the page templates of GitBook or Jekyll (no Markdown)"
	default:
		return false, nil
	}
	c.issue(report.CodeToolFileIgnored, repoRel, "%s/ (%s) %s, not documentation; docweave renders with its own theme, so it is left out",
		pathsafe.Shown(repoRel), words.Plural(countFiles(p), "file"), why)
	return skip()
}

// holdsMarkdown reports whether a page (a Markdown file) lies below dir.
func holdsMarkdown(dir string) bool {
	found := false
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && isPage(d.Name()) {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// bookIgnoreIssues reports, once per .bookignore, what it left out.
func (t *otherTools) bookIgnoreIssues() []report.Issue {
	if t == nil {
		return nil
	}
	var out []report.Issue
	for _, b := range t.order {
		if b.files == 0 && b.dirs == 0 {
			continue
		}
		left := words.Plural(b.files, "file")
		if b.dirs > 0 {
			left = fmt.Sprintf("%s in all (%s among them)", left, words.Count(b.dirs, "whole directory", "whole directories"))
		}
		out = append(out, report.Issue{Code: report.CodeToolFileIgnored, Path: pathsafe.Shown(b.repoRel), Message: fmt.Sprintf(
			"%s, GitBook's list of what the book leaves out (%s), leaves out %s; they are not published", pathsafe.Shown(b.repoRel), words.Plural(b.patternCount, "pattern"), left)})
	}
	return out
}
