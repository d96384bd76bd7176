package dialect

import (
	"path"
	"strings"
)

// Repo is what a dialect may know of the files of a page's repository (or
// version), for constructs that name another of its files (Hugo's include
// and readfile shortcodes): which files there are, and their size. The
// zero Repo has no files.
type Repo struct {
	// Root is the repository's directory under content/ and Page the
	// page's path below it (slash paths).
	Root, Page string
	// Size returns the size of the file at a slash path below Root, and
	// false when the repository has no such file.
	Size func(rel string) (int64, bool)
}

// Find resolves a file name written in the page: relative to the page's
// directory, or, when nothing is there or it starts with "/", to the
// repository's root, trying each of the names alternatives makes of it
// (nil: the name alone). It returns the file's path below Root and its
// size, or false when the name leads out of the repository (any "..")
// or to no file of it.
func (r Repo) Find(name string, alternatives func(string) []string) (string, int64, bool) {
	if r.Size == nil || name == "" || strings.Contains(name, "..") || strings.ContainsAny(name, "\\\x00") {
		return "", 0, false
	}
	if alternatives == nil {
		alternatives = func(p string) []string { return []string{p} }
	}
	var bases []string
	if !strings.HasPrefix(name, "/") {
		bases = append(bases, path.Dir(r.Page))
	}
	bases = append(bases, ".")
	for _, base := range bases {
		for _, p := range alternatives(path.Join(base, strings.TrimPrefix(name, "/"))) {
			if p == "." || p == r.Page {
				continue
			}
			if size, ok := r.Size(p); ok {
				return p, size, true
			}
		}
	}
	return "", 0, false
}
