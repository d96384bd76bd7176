package site

import (
	"errors"
	"path"
	"strings"

	"github.com/gohugoio/hugo/common/herrors"

	"github.com/docweave/docweave/site/internal/hugobuild"
	"github.com/docweave/docweave/site/internal/pages"
)

// When Hugo's build fails, the pages it names in its errors are the ones
// left out on the next attempt. Hugo names a page in three ways:
//
//   - by its file: "/project/content/r/page.md:3:5": ...
//   - by its path in the content tree: cannot render "docs/r/page.md"
//   - by its page path: render of "/docs/r/page" failed
//
// pageFinder maps all three back to the Markdown file (a slash path
// relative to content/).
type pageFinder struct {
	fileDirs []string          // absolute directories holding page files, with a trailing separator
	logical  map[string]string // "docs/<path>" as Hugo sees it → file
	paths    map[string]string // page path ("/docs/r/page") → file
	files    map[string]bool   // the Markdown files
}

func newPageFinder(l hugobuild.Layout, tree pages.Tree, scan hugobuild.ContentScan) *pageFinder {
	f := &pageFinder{
		fileDirs: []string{l.ContentDir + "/", l.PagesDir + "/"},
		logical:  make(map[string]string, len(tree.Markdown)),
		paths:    make(map[string]string, len(tree.Markdown)),
		files:    make(map[string]bool, len(tree.Markdown)),
	}
	for _, rel := range tree.Markdown {
		f.files[rel] = true
		f.logical["docs/"+rel] = rel
		f.paths[pagePath(strings.TrimSuffix(rel, path.Ext(rel)))] = rel
	}
	for dir, rel := range scan.IndexFiles {
		f.logical[path.Join("docs", dir, "_index"+path.Ext(rel))] = rel
		f.paths[pagePath(dir)] = rel
	}
	return f
}

// pagePath is Hugo's page path of a content path: lower case, spaces as
// hyphens, under /docs.
func pagePath(contentPath string) string {
	return path.Join("/docs", strings.ReplaceAll(strings.ToLower(contentPath), " ", "-"))
}

// culprits returns the Markdown files named in Hugo's build error and in
// the errors it logged, each with the message naming it.
func (f *pageFinder) culprits(buildErr error, logged []string) map[string]string {
	found := map[string]string{}
	var fileErrs []herrors.FileError
	collectFileErrors(buildErr, &fileErrs)
	for _, fe := range fileErrs {
		if rel := f.fromFilename(fe.Position().Filename); rel != "" {
			if _, ok := found[rel]; !ok {
				found[rel] = buildErr.Error()
			}
		}
	}
	messages := append([]string{buildErr.Error()}, logged...)
	for _, msg := range messages {
		named := f.fileNamesIn(msg)
		if len(named) == 0 {
			named = f.pagePathsIn(msg)
		}
		for _, rel := range named {
			if _, ok := found[rel]; !ok {
				found[rel] = msg
			}
		}
	}
	return found
}

// collectFileErrors walks an error tree for Hugo's file errors.
func collectFileErrors(err error, out *[]herrors.FileError) {
	if err == nil {
		return
	}
	var fe herrors.FileError
	if errors.As(err, &fe) {
		*out = append(*out, fe)
	}
	switch u := err.(type) {
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			collectFileErrors(e, out)
		}
	}
}

// fromFilename maps an absolute file name to a Markdown file, or "".
func (f *pageFinder) fromFilename(name string) string {
	for _, dir := range f.fileDirs {
		if rel, ok := strings.CutPrefix(name, dir); ok && f.files[rel] {
			return rel
		}
	}
	return ""
}

// fileNamesIn finds the Markdown files a message names by file name or by
// content path.
func (f *pageFinder) fileNamesIn(msg string) []string {
	var out []string
	for _, dir := range f.fileDirs {
		for rest := msg; ; {
			i := strings.Index(rest, dir)
			if i < 0 {
				break
			}
			rest = rest[i+len(dir):]
			if rel := longestKnown(rest, f.files, nil); rel != "" {
				out = append(out, rel)
			}
		}
	}
	for rest := msg; ; {
		i := strings.Index(rest, `"docs/`)
		if i < 0 {
			break
		}
		rest = rest[i+1:]
		if rel := longestKnown(rest, nil, f.logical); rel != "" {
			out = append(out, rel)
		}
	}
	return out
}

// pagePathsIn finds the Markdown files a message names by page path.
func (f *pageFinder) pagePathsIn(msg string) []string {
	var out []string
	for rest := msg; ; {
		i := strings.Index(rest, `"/docs/`)
		if i < 0 {
			break
		}
		rest = rest[i+1:]
		end := strings.IndexByte(rest, '"')
		if end < 0 {
			break
		}
		if rel, ok := f.paths[strings.TrimSuffix(rest[:end], "/")]; ok {
			out = append(out, rel)
		}
	}
	return out
}

// longestKnown returns the longest prefix of s, ending where a file name in
// a Hugo message ends (a quote, a colon before a line number, white space or
// the end), that is in files or a key of mapped (then its value), or "".
func longestKnown(s string, files map[string]bool, mapped map[string]string) string {
	best := ""
	for i := 0; i <= len(s); i++ {
		if i < len(s) && !strings.ContainsRune("\":' \n\t)", rune(s[i])) {
			continue
		}
		candidate := s[:i]
		if files[candidate] {
			best = candidate
		} else if rel, ok := mapped[candidate]; ok {
			best = rel
		}
		if i < len(s) && (s[i] == '"' || s[i] == '\n') {
			break
		}
	}
	return best
}
