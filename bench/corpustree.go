package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	yaml "go.yaml.in/yaml/v3"
)

// givenTree is what a repository gives, read from its Git tree by the
// bench itself, never through docweave: the Markdown files under its
// documentation roots, and which of them are not pages by the rules of
// the tool they were written for.
type givenTree struct {
	// Markdown lists the Markdown files (.md, .mdx, .markdown in any
	// case) under the roots, repository-relative, hidden ones left out.
	Markdown []string
	// NotPages maps the Markdown files that are not pages to the reason.
	NotPages map[string]string
}

// Reasons a Markdown file is not a page. Each is a rule of the tool the
// documentation was written for, applied from the tree alone.
const (
	notPageSummary  = "GitBook SUMMARY.md (table of contents)"
	notPageShadowed = "index.md beside _index.md (Hugo reads one page per directory)"
	notPageDraft    = "draft (draft: true or published: false)"
	notPageRender   = "Hugo build.render: never (own or cascaded)"
	notPageBook     = "listed in .bookignore (GitBook)"
)

// frontMatterBytes is how much of a Markdown file the bench reads for its
// front matter; the rest is discarded as it streams past.
const frontMatterBytes = 64 << 10

// treeEntry is one blob of a Git tree.
type treeEntry struct {
	path, object string
}

// readGivenTree lists the Markdown files of commit rev of the repository
// at gitDir under roots and classifies them. Roots are slash paths from
// the repository root ("." for all of it).
func readGivenTree(ctx context.Context, gitDir, rev string, roots []string) (givenTree, error) {
	entries, err := lsTree(ctx, gitDir, rev)
	if err != nil {
		return givenTree{}, err
	}
	roots = cleanRoots(roots)
	g := givenTree{NotPages: map[string]string{}}
	seen := map[string]bool{}
	var wanted []treeEntry       // Markdown files whose front matter is read
	books := map[string]string{} // root → object of its .bookignore
	for _, e := range entries {
		for _, root := range roots {
			rel, ok := underRoot(e.path, root)
			if !ok {
				continue
			}
			if rel == ".bookignore" {
				books[root] = e.object
			}
			if seen[e.path] || hiddenPath(rel) || !isMarkdownName(rel) {
				continue
			}
			seen[e.path] = true
			g.Markdown = append(g.Markdown, e.path)
			wanted = append(wanted, e)
			if strings.EqualFold(rel, "SUMMARY.md") {
				g.NotPages[e.path] = notPageSummary
			}
		}
	}
	sort.Strings(g.Markdown)
	markShadowedIndexes(g)
	if err := markIgnoredByBook(ctx, gitDir, roots, books, g); err != nil {
		return givenTree{}, err
	}
	fronts, err := readFrontMatters(ctx, gitDir, wanted)
	if err != nil {
		return givenTree{}, err
	}
	markFrontMatter(g, fronts)
	return g, nil
}

// lsTree lists the blobs of rev (symbolic links and submodules are not
// files a tool renders).
func lsTree(ctx context.Context, gitDir, rev string) ([]treeEntry, error) {
	out, err := exec.CommandContext(ctx, "git", "--git-dir", gitDir, "ls-tree", "-r", "-z", "--full-tree", rev).Output()
	if err != nil {
		return nil, fmt.Errorf("list the tree of %s at %s: %w%s", gitDir, rev, err, stderrOf(err))
	}
	var entries []treeEntry
	for _, rec := range bytes.Split(out, []byte{0}) {
		meta, name, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		f := strings.Fields(string(meta))
		if len(f) != 3 || f[1] != "blob" || f[0] == "120000" {
			continue
		}
		entries = append(entries, treeEntry{path: string(name), object: f[2]})
	}
	return entries, nil
}

// stderrOf is the standard error of a failed command, for its message.
func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
		return ": " + tail(strings.TrimSpace(string(ee.Stderr)), 500)
	}
	return ""
}

// cleanRoots turns configured paths into slash paths without "./" or a
// trailing slash, "." for the whole repository.
func cleanRoots(roots []string) []string {
	out := make([]string, 0, len(roots))
	for _, r := range roots {
		out = append(out, path.Clean("/" + strings.TrimSpace(r))[1:])
	}
	for i, r := range out {
		if r == "" {
			out[i] = "."
		}
	}
	return out
}

// underRoot is p relative to root, if p is below it.
func underRoot(p, root string) (string, bool) {
	if root == "." {
		return p, true
	}
	rest, ok := strings.CutPrefix(p, root+"/")
	return rest, ok
}

// hiddenPath reports whether a file or a directory on its way is hidden
// (a dot name): no documentation tool publishes those, nor does docweave.
func hiddenPath(rel string) bool {
	for _, part := range strings.Split(rel, "/") {
		if strings.HasPrefix(part, ".") {
			return true
		}
	}
	return false
}

// isMarkdownName reports whether a file name is Markdown by its suffix.
func isMarkdownName(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".mdx", ".markdown":
		return true
	}
	return false
}

// stem is a file's base name without its suffix, lower case.
func stem(p string) string {
	base := path.Base(p)
	return strings.ToLower(strings.TrimSuffix(base, path.Ext(base)))
}

// markShadowedIndexes marks an index.md of a directory that also holds
// an _index.md: Hugo makes one page of a directory, from _index.md.
func markShadowedIndexes(g givenTree) {
	branch := map[string]bool{}
	for _, p := range g.Markdown {
		if stem(p) == "_index" {
			branch[path.Dir(p)] = true
		}
	}
	for _, p := range g.Markdown {
		if stem(p) == "index" && branch[path.Dir(p)] {
			g.NotPages[p] = notPageShadowed
		}
	}
}

// markIgnoredByBook marks the Markdown files a .bookignore at a
// documentation root (a GitBook space's root) lists, in .gitignore syntax.
func markIgnoredByBook(ctx context.Context, gitDir string, roots []string, books map[string]string, g givenTree) error {
	for _, root := range roots {
		obj, ok := books[root]
		if !ok {
			continue
		}
		data, err := exec.CommandContext(ctx, "git", "--git-dir", gitDir, "cat-file", "blob", obj).Output()
		if err != nil {
			return fmt.Errorf("read %s/.bookignore: %w%s", root, err, stderrOf(err))
		}
		var patterns []gitignore.Pattern
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimRight(line, "\r")
			if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
				continue
			}
			patterns = append(patterns, gitignore.ParsePattern(line, nil))
		}
		m := gitignore.NewMatcher(patterns)
		for _, p := range g.Markdown {
			if rel, ok := underRoot(p, root); ok && m.Match(strings.Split(rel, "/"), false) {
				if _, already := g.NotPages[p]; !already {
					g.NotPages[p] = notPageBook
				}
			}
		}
	}
	return nil
}

// frontMatter is what the bench reads of a page's front matter.
type frontMatter struct {
	draft         bool
	renderNever   bool // build.render: never (or false) on the page
	cascadesNever bool // cascade.build.render: never, for the pages below
}

// readFrontMatters reads the front matter of each entry's blob through
// one `git cat-file --batch`, keeping at most frontMatterBytes of each.
func readFrontMatters(ctx context.Context, gitDir string, entries []treeEntry) (map[string]frontMatter, error) {
	out := make(map[string]frontMatter, len(entries))
	if len(entries) == 0 {
		return out, nil
	}
	cmd := exec.CommandContext(ctx, "git", "--git-dir", gitDir, "cat-file", "--batch")
	var stdin bytes.Buffer
	for _, e := range entries {
		stdin.WriteString(e.object + "\n")
	}
	cmd.Stdin = &stdin
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("read front matter in %s: %w", gitDir, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("read front matter in %s: %w", gitDir, err)
	}
	r := bufio.NewReaderSize(stdout, 64<<10)
	var readErr error
	for _, e := range entries {
		head, err := nextBlob(r)
		if err != nil {
			readErr = fmt.Errorf("read front matter of %s in %s: %w", e.path, gitDir, err)
			break
		}
		out[e.path] = parseFrontMatter(head)
	}
	if readErr != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, readErr
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("read front matter in %s: %w", gitDir, err)
	}
	return out, nil
}

// nextBlob reads one object of `git cat-file --batch` output and returns
// its first frontMatterBytes.
func nextBlob(r *bufio.Reader) ([]byte, error) {
	header, err := r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	f := strings.Fields(header)
	if len(f) != 3 {
		return nil, fmt.Errorf("git cat-file: %q", strings.TrimSpace(header))
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		return nil, fmt.Errorf("git cat-file: %q", strings.TrimSpace(header))
	}
	keep := min(size, frontMatterBytes)
	head := make([]byte, keep)
	if _, err := io.ReadFull(r, head); err != nil {
		return nil, err
	}
	if _, err := io.CopyN(io.Discard, r, size-keep+1); err != nil { // and the newline
		return nil, err
	}
	return head, nil
}

// parseFrontMatter reads YAML (---) or JSON ({) front matter; TOML (+++)
// is not read. A front matter that does not parse says nothing.
func parseFrontMatter(content []byte) frontMatter {
	content = bytes.TrimPrefix(content, []byte("\xef\xbb\xbf"))
	var m map[string]any
	switch {
	case bytes.HasPrefix(content, []byte("---")):
		rest := content[3:]
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 || strings.TrimSpace(string(rest[:nl])) != "" {
			return frontMatter{}
		}
		body := rest[nl+1:]
		end := bytes.Index(body, []byte("\n---"))
		if bytes.HasPrefix(body, []byte("---")) || end < 0 {
			return frontMatter{} // empty, or not closed: nothing said
		}
		if yaml.Unmarshal(body[:end], &m) != nil {
			return frontMatter{}
		}
	case bytes.HasPrefix(content, []byte("{")):
		if json.NewDecoder(bytes.NewReader(content)).Decode(&m) != nil {
			return frontMatter{}
		}
	default:
		return frontMatter{}
	}
	fm := frontMatter{renderNever: renderNever(m)}
	if d, ok := m["draft"].(bool); ok && d {
		fm.draft = true
	}
	if p, ok := m["published"].(bool); ok && !p {
		fm.draft = true
	}
	switch c := m["cascade"].(type) {
	case map[string]any:
		fm.cascadesNever = renderNever(c)
	case []any:
		for _, item := range c {
			if cm, ok := item.(map[string]any); ok && renderNever(cm) {
				fm.cascadesNever = true
			}
		}
	}
	return fm
}

// renderNever reports whether a front matter map says build.render never
// (Hugo's current spelling) or false (its old one), also under _build.
func renderNever(m map[string]any) bool {
	for _, key := range []string{"build", "_build"} {
		b, ok := m[key].(map[string]any)
		if !ok {
			continue
		}
		switch v := b["render"].(type) {
		case string:
			if strings.EqualFold(v, "never") || strings.EqualFold(v, "false") {
				return true
			}
		case bool:
			if !v {
				return true
			}
		}
	}
	return false
}

// markFrontMatter marks drafts and pages Hugo does not render: by their
// own build options, or by those an _index.md above them cascades — the
// _index.md that cascades it included (a headless bundle's root).
func markFrontMatter(g givenTree, fronts map[string]frontMatter) {
	var never []string // directories below which nothing renders
	for _, p := range g.Markdown {
		if fm := fronts[p]; fm.cascadesNever && stem(p) == "_index" {
			never = append(never, path.Dir(p))
		}
	}
	for _, p := range g.Markdown {
		if _, already := g.NotPages[p]; already {
			continue
		}
		fm := fronts[p]
		switch {
		case fm.renderNever || belowAny(p, never):
			g.NotPages[p] = notPageRender
		case fm.draft:
			g.NotPages[p] = notPageDraft
		}
	}
}

// belowAny reports whether p is inside one of dirs.
func belowAny(p string, dirs []string) bool {
	for _, d := range dirs {
		if _, ok := underRoot(p, d); ok {
			return true
		}
	}
	return false
}
